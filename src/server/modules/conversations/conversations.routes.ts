// Saved conversations (signed-in people only; anonymous 401). A conversation that is not the
// caller's, or whose personality they can no longer see, is 404.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { requireViewer } from '../../auth/session';
import { okSchema } from '../../../shared/schemas/common';
import {
  conversationListQuerySchema,
  conversationListSchema,
  conversationResponseSchema,
  createConversationSchema,
  renameConversationSchema,
} from '../../../shared/schemas/conversations';
import type { ConversationService } from './conversations.service';

const tags = ['conversations'];
const idParams = z.object({ id: z.string() });

const list = createRoute({
  method: 'get',
  path: '/{id}/conversations',
  tags,
  summary: "A page of the caller's saved conversations with this personality, most recently active first",
  request: { params: idParams, query: conversationListQuerySchema },
  responses: { 200: jsonResponse(conversationListSchema, 'Conversations'), ...errorResponses },
});
const create = createRoute({
  method: 'post',
  path: '/{id}/conversations',
  tags,
  summary: 'Start a saved conversation (it opens with the greeting)',
  request: { params: idParams, ...jsonBody(createConversationSchema) },
  responses: { 201: jsonResponse(conversationResponseSchema, 'Created'), ...errorResponses },
});
const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  summary: 'One saved conversation with its messages, oldest first',
  request: { params: idParams },
  responses: { 200: jsonResponse(conversationResponseSchema, 'The conversation'), ...errorResponses },
});
const rename = createRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  summary: 'Rename a saved conversation',
  request: { params: idParams, ...jsonBody(renameConversationSchema) },
  responses: { 200: jsonResponse(conversationResponseSchema, 'Renamed'), ...errorResponses },
});
const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete a saved conversation and its messages',
  request: { params: idParams },
  responses: { 200: jsonResponse(okSchema, 'Deleted'), ...errorResponses },
});

/** Mounted at /api/personalities. */
export function personalityConversationRoutes(service: ConversationService) {
  return createRouter()
    .openapi(list, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json(await service.list(viewer, c.req.valid('param').id, c.req.valid('query')), 200);
    })
    .openapi(create, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const conversation = await service.createForPersonality(viewer, c.req.valid('param').id, c.req.valid('json').title);
      return c.json({ conversation }, 201);
    });
}

/** Mounted at /api/conversations. */
export function conversationRoutes(service: ConversationService) {
  return createRouter()
    .openapi(get, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ conversation: await service.get(viewer, c.req.valid('param').id) }, 200);
    })
    .openapi(rename, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ conversation: await service.rename(viewer, c.req.valid('param').id, c.req.valid('json').title) }, 200);
    })
    .openapi(remove, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      await service.remove(viewer, c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    });
}
