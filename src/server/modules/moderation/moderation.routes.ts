// Content flags: admins list and review them under /api/admin/content-flags (anonymous 401,
// signed-in non-admin 403, before anything is read); anyone who may see a personality reports
// one of its replies at POST /api/personalities/{id}/reports (signed-out visitors too; limited).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { adminOnly, requireAdmin } from '../../auth/session';
import { errorResponseSchema } from '../../../shared/schemas/common';
import { flagListSchema, flagResponseSchema, reportResponseSchema, reportSchema, reviewFlagSchema } from '../../../shared/schemas/moderation';
import { pendingPageQuerySchema } from '../../../shared/schemas/admin';
import type { ModerationService } from './moderation.service';

const tags = ['moderation'];
const idParams = z.object({ id: z.string() });
const conflict = { 409: { content: { 'application/json': { schema: errorResponseSchema } }, description: 'Already reviewed' } };


const listFlags = createRoute({
  method: 'get',
  path: '/',
  tags,
  middleware: [adminOnly] as const,
  summary: 'A page of pending content flags (newest first; ?before= for the next), how many are pending, and the 10 most recently reviewed',
  request: { query: pendingPageQuerySchema },
  responses: { 200: jsonResponse(flagListSchema, 'Flags'), ...errorResponses },
});
const reviewFlag = createRoute({
  method: 'post',
  path: '/{id}/review',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Confirm a violation (approved) or mark a false positive (rejected), with optional notes',
  request: { params: idParams, ...jsonBody(reviewFlagSchema) },
  responses: { 200: jsonResponse(flagResponseSchema, 'Reviewed'), ...errorResponses, ...conflict },
});
const report = createRoute({
  method: 'post',
  path: '/{id}/reports',
  tags,
  summary: 'Report a reply of a personality the asker may see (becomes a pending flag)',
  request: { params: idParams, ...jsonBody(reportSchema) },
  responses: { 200: jsonResponse(reportResponseSchema, 'Reported'), ...errorResponses },
});

export function contentFlagRoutes(service: ModerationService) {
  return createRouter()
    .openapi(listFlags, async (c) => c.json(await service.list(c.req.valid('query').before), 200))
    .openapi(reviewFlag, async (c) => {
      const admin = await requireAdmin(c.get('viewer'), c.get('isAdmin'));
      const flag = await service.review(admin, c.req.valid('param').id, c.req.valid('json'));
      return c.json({ flag }, 200);
    });
}

export function reportRoutes(service: ModerationService) {
  return createRouter().openapi(report, async (c) => {
    await service.report(c.get('viewer'), c.req.valid('param').id, c.req.valid('json'));
    return c.json({ ok: true as const }, 200);
  });
}
