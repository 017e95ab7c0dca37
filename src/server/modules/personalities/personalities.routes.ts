import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { requireViewer } from '../../auth/session';
import { okSchema } from '../../../shared/schemas/common';
import {
  createPersonalitySchema,
  personalityListSchema,
  personalityResponseSchema,
  updatePersonalitySchema,
} from '../../../shared/schemas/personality';
import type { PersonalityService } from './personalities.service';

const idParams = z.object({ id: z.string() });
const tags = ['personalities'];

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Personalities the caller may see, in library order',
  responses: { 200: jsonResponse(personalityListSchema, 'The library') },
});
const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  request: { params: idParams },
  responses: { 200: jsonResponse(personalityResponseSchema, 'One personality'), ...errorResponses },
});
const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  request: jsonBody(createPersonalitySchema),
  responses: { 201: jsonResponse(personalityResponseSchema, 'Created'), ...errorResponses },
});
const update = createRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  request: { params: idParams, ...jsonBody(updatePersonalitySchema) },
  responses: { 200: jsonResponse(personalityResponseSchema, 'Updated'), ...errorResponses },
});
const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  request: { params: idParams },
  responses: { 200: jsonResponse(okSchema, 'Deleted with everything that belongs to it'), ...errorResponses },
});

export function personalityRoutes(service: PersonalityService) {
  return createRouter()
    .openapi(list, async (c) => c.json({ personalities: await service.list(c.get('viewer')) }, 200))
    .openapi(get, async (c) => c.json({ personality: await service.get(c.get('viewer'), c.req.valid('param').id) }, 200))
    .openapi(create, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ personality: await service.create(viewer, c.req.valid('json')) }, 201);
    })
    .openapi(update, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const personality = await service.update(viewer, c.req.valid('param').id, c.req.valid('json'));
      return c.json({ personality }, 200);
    })
    .openapi(remove, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      await service.remove(viewer, c.req.valid('param').id);
      return c.json({ ok: true as const }, 200);
    });
}
