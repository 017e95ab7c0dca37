// The admin dashboard's governance API under /api/admin. Every route is admin-only, checked on
// the server (anonymous 401, signed-in non-admin 403) before anything is read or changed.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { adminOnly, requireAdmin } from '../../auth/session';
import { errorResponseSchema } from '../../../shared/schemas/common';
import {
  adminPersonalityListSchema,
  adminPersonalityResponseSchema,
  adminPublicRequestListSchema,
  adminPublicRequestResponseSchema,
  adminSummarySchema,
  pendingPageQuerySchema,
  updateOrderResponseSchema,
  updateOrderSchema,
} from '../../../shared/schemas/admin';
import type { AdminService } from './admin.service';

const tags = ['admin'];
const idParams = z.object({ id: z.string() });
const conflict = { 409: { content: { 'application/json': { schema: errorResponseSchema } }, description: 'Conflicts with the current state' } };

const summary = createRoute({
  method: 'get',
  path: '/summary',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Counts for the summary cards',
  responses: { 200: jsonResponse(adminSummarySchema, 'Public personalities and pending requests'), ...errorResponses },
});
const listRequests = createRoute({
  method: 'get',
  path: '/public-requests',
  tags,
  middleware: [adminOnly] as const,
  summary: 'A page of pending public requests (newest first; ?before= for the next), how many are pending, and the 5 latest reviews',
  request: { query: pendingPageQuerySchema },
  responses: { 200: jsonResponse(adminPublicRequestListSchema, 'The queue'), ...errorResponses },
});
const approve = createRoute({
  method: 'post',
  path: '/public-requests/{id}/approve',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Approve: make the personality public (409 if it was deleted or the request is not pending)',
  request: { params: idParams },
  responses: { 200: jsonResponse(adminPublicRequestResponseSchema, 'Approved'), ...errorResponses, ...conflict },
});
const reject = createRoute({
  method: 'post',
  path: '/public-requests/{id}/reject',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Reject a pending request (also when its personality was deleted)',
  request: { params: idParams },
  responses: { 200: jsonResponse(adminPublicRequestResponseSchema, 'Rejected'), ...errorResponses, ...conflict },
});
const listPublic = createRoute({
  method: 'get',
  path: '/personalities/public',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Public personalities, most recently updated first',
  responses: { 200: jsonResponse(adminPersonalityListSchema, 'Public personalities'), ...errorResponses },
});
const revert = createRoute({
  method: 'post',
  path: '/personalities/{id}/revert',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Make a public personality private (409 if it is not public)',
  request: { params: idParams },
  responses: { 200: jsonResponse(adminPersonalityResponseSchema, 'Now private'), ...errorResponses, ...conflict },
});
const ordering = createRoute({
  method: 'get',
  path: '/personalities/ordering',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Public personalities in library order (display order, nulls last, then name)',
  responses: { 200: jsonResponse(adminPersonalityListSchema, 'Public personalities in order'), ...errorResponses },
});
const saveOrder = createRoute({
  method: 'put',
  path: '/personalities/order',
  tags,
  middleware: [adminOnly] as const,
  summary: 'Save the display order of public personalities in one transaction (all or nothing)',
  request: jsonBody(updateOrderSchema),
  responses: { 200: jsonResponse(updateOrderResponseSchema, 'Saved'), ...errorResponses },
});

export function adminRoutes(service: AdminService) {
  return createRouter()
    .openapi(summary, async (c) => c.json(await service.summary(), 200))
    .openapi(listRequests, async (c) => c.json(await service.listRequests(c.req.valid('query').before), 200))
    .openapi(approve, async (c) => {
      const request = await service.approve(await requireAdmin(c.get('viewer'), c.get('isAdmin')), c.req.valid('param').id);
      return c.json({ request }, 200);
    })
    .openapi(reject, async (c) => {
      const request = await service.reject(await requireAdmin(c.get('viewer'), c.get('isAdmin')), c.req.valid('param').id);
      return c.json({ request }, 200);
    })
    .openapi(listPublic, async (c) => c.json({ personalities: await service.listPublicByUpdated() }, 200))
    .openapi(revert, async (c) => c.json({ personality: await service.revertToPrivate(c.req.valid('param').id) }, 200))
    .openapi(ordering, async (c) => c.json({ personalities: await service.listPublicByOrder() }, 200))
    .openapi(saveOrder, async (c) => c.json({ updated: await service.saveOrder(c.req.valid('json').updates) }, 200));
}
