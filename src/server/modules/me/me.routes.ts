import { createRoute } from '@hono/zod-openapi';
import { createRouter, jsonResponse } from '../../lib/openapi';
import { meSchema } from '../../../shared/schemas/me';

const me = createRoute({
  method: 'get',
  path: '/',
  tags: ['session'],
  summary: 'Who is signed in, and whether they are an admin',
  responses: { 200: jsonResponse(meSchema, 'The current viewer (user null when signed out)') },
});

export function meRoutes() {
  return createRouter().openapi(me, async (c) => {
    const viewer = c.get('viewer');
    return c.json(
      {
        user: viewer ? { id: viewer.id, email: viewer.email, displayName: viewer.name } : null,
        isAdmin: await c.get('isAdmin')(),
      },
      200,
    );
  });
}
