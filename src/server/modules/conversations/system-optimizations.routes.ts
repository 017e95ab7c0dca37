// GET /api/admin/system-optimizations (admin only): the context cache's measured effect, for the
// conversation screen's "System Optimizations" card.
import { createRoute } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonResponse } from '../../lib/openapi';
import { requireAdmin } from '../../auth/session';
import { systemOptimizationsSchema } from '../../../shared/schemas/conversations';
import type { ChatResponder } from '../../ai/providers';
import type { ContextCache } from './context-cache';
import type { Retriever } from './retrieval';

const get = createRoute({
  method: 'get',
  path: '/',
  tags: ['admin'],
  summary: 'Context cache hit rate and time to first token with and without it (admin)',
  responses: { 200: jsonResponse(systemOptimizationsSchema, 'Measured figures'), ...errorResponses },
});

export function systemOptimizationRoutes(cache: ContextCache, responder: ChatResponder, retriever: Retriever) {
  return createRouter().openapi(get, async (c) => {
    await requireAdmin(c.get('viewer'), c.get('isAdmin'));
    return c.json(
      { ...cache.stats(), responder: { mode: responder.mode, label: responder.label }, retrieval: { mode: retriever.mode } },
      200,
    );
  });
}
