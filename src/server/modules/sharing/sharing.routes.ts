// The owner's sharing API, under /api/personalities/{id}/...: parse, call the service, map.
// Anonymous callers get 401; a signed-in non-owner gets 404 (cannot see it) or 403 (can see it).
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { requireViewer } from '../../auth/session';
import { errorResponseSchema, okSchema } from '../../../shared/schemas/common';
import {
  addShareResponseSchema,
  addShareSchema,
  createPublicRequestSchema,
  latestPublicRequestSchema,
  publicRequestResponseSchema,
  shareListSchema,
  sharingStateResponseSchema,
  updateSharingSchema,
} from '../../../shared/schemas/sharing';
import type { SharingService } from './sharing.service';

const tags = ['sharing'];
const idParams = z.object({ id: z.string() });
const conflict = { 409: { content: { 'application/json': { schema: errorResponseSchema } }, description: 'Conflicts with the current state' } };

const setSharing = createRoute({
  method: 'put',
  path: '/{id}/sharing',
  tags,
  summary: 'Set the sharing level (owner). Public is applied only for admins; others get 403 ADMIN_APPROVAL_REQUIRED',
  request: { params: idParams, ...jsonBody(updateSharingSchema) },
  responses: { 200: jsonResponse(sharingStateResponseSchema, 'The level now'), ...errorResponses },
});
const listShares = createRoute({
  method: 'get',
  path: '/{id}/shares',
  tags,
  summary: 'People the personality is shared with (owner)',
  request: { params: idParams },
  responses: { 200: jsonResponse(shareListSchema, 'Shares, oldest first'), ...errorResponses },
});
const addShare = createRoute({
  method: 'post',
  path: '/{id}/shares',
  tags,
  summary: 'Share with a registered user by e-mail (owner); a private personality becomes shared',
  request: { params: idParams, ...jsonBody(addShareSchema) },
  responses: { 201: jsonResponse(addShareResponseSchema, 'Shared'), ...errorResponses, ...conflict },
});
const removeShare = createRoute({
  method: 'delete',
  path: '/{id}/shares/{shareId}',
  tags,
  summary: 'Stop sharing with one person (owner); their access ends at once',
  request: { params: z.object({ id: z.string(), shareId: z.string() }) },
  responses: { 200: jsonResponse(okSchema, 'Removed'), ...errorResponses },
});
const leaveShare = createRoute({
  method: 'delete',
  path: '/{id}/my-share',
  tags,
  summary: 'Remove a personality shared with you from your library (the recipient); the owner can share it again',
  request: { params: idParams },
  responses: { 200: jsonResponse(okSchema, 'Removed'), ...errorResponses },
});
const latestRequest = createRoute({
  method: 'get',
  path: '/{id}/public-request',
  tags,
  summary: "The owner's latest public request (pending, approved or rejected), or null",
  request: { params: idParams },
  responses: { 200: jsonResponse(latestPublicRequestSchema, 'Latest request'), ...errorResponses },
});
const requestPublic = createRoute({
  method: 'post',
  path: '/{id}/public-requests',
  tags,
  summary: 'Ask an admin to make the personality public (owner); one pending request at a time',
  request: { params: idParams, ...jsonBody(createPublicRequestSchema) },
  responses: { 201: jsonResponse(publicRequestResponseSchema, 'Submitted'), ...errorResponses, ...conflict },
});

export function sharingRoutes(service: SharingService) {
  return createRouter()
    .openapi(setSharing, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { sharingType } = c.req.valid('json');
      const personality = await service.setSharingType(viewer, c.get('isAdmin'), c.req.valid('param').id, sharingType);
      return c.json({ personality }, 200);
    })
    .openapi(listShares, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ shares: await service.listShares(viewer, c.req.valid('param').id) }, 200);
    })
    .openapi(addShare, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json(await service.addShare(viewer, c.req.valid('param').id, c.req.valid('json').email), 201);
    })
    .openapi(removeShare, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { id, shareId } = c.req.valid('param');
      await service.removeShare(viewer, id, shareId);
      return c.json({ ok: true as const }, 200);
    })
    .openapi(leaveShare, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      await service.leaveShare(viewer, c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    })
    .openapi(latestRequest, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ request: await service.latestPublicRequest(viewer, c.req.valid('param').id) }, 200);
    })
    .openapi(requestPublic, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const request = await service.requestPublic(viewer, c.req.valid('param').id, c.req.valid('json').message ?? null);
      return c.json({ request }, 201);
    });
}
