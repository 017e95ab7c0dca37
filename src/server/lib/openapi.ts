// Helpers that keep route declarations short: JSON bodies and responses, shared error responses,
// and the validation hook that turns a zod failure into the API's error shape.
import { OpenAPIHono, z, type Hook, type RouteConfig } from '@hono/zod-openapi';
import type { AppEnv } from '../auth/session';
import { errorResponseSchema } from '../../shared/schemas/common';
import { errorBody } from './errors';

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { body: { content: { 'application/json': { schema } }, required: true } };
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

const errorContent = { content: { 'application/json': { schema: errorResponseSchema } } };
export const errorResponses = {
  400: { ...errorContent, description: 'Invalid input' },
  401: { ...errorContent, description: 'Not signed in' },
  403: { ...errorContent, description: 'Not allowed' },
  404: { ...errorContent, description: 'Not found or not visible to the caller' },
} as const;

// The first issue's message is the one a person can act on ("Please enter a name...").
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (!result.success) {
    const issue = result.error.issues[0];
    const unknownKey = issue?.code === 'unrecognized_keys';
    const message = unknownKey
      ? `Unknown field: ${(issue as { keys?: string[] }).keys?.join(', ')}`
      : // zod's own wording names no field ("Invalid input: expected string..."): say which one;
        // a message of ours already does.
        issue?.code === 'invalid_type' && issue.path.length > 0 && issue.message.startsWith('Invalid input')
        ? `${issue.path.join('.')}: ${issue.message}`
        : (issue?.message ?? 'The request is not valid');
    return c.json(errorBody('BAD_REQUEST', message), 400);
  }
};

export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

/**
 * Lists in /api/openapi.json the routes whose handlers read their own bodies (multipart streams
 * with limits enforced while they arrive, raw audio) or answer other than JSON (audio, images,
 * Server-Sent Events, NDJSON). They are declared, not validated: the handler's own checks and
 * the spec's messages stay the only ones. Call it before the router is mounted (mounting copies
 * the declarations).
 */
export function describeRoutes<R extends OpenAPIHono<AppEnv>>(router: R, routes: RouteConfig[]): R {
  for (const route of routes) router.openAPIRegistry.registerPath(route);
  return router;
}

/** A path parameter `{id}`: the personality. */
export const personalityIdParam = { params: z.object({ id: z.string().describe('Personality id') }) };

/** A body of one or more files sent as multipart/form-data. */
export function multipartBody(fields: Record<string, z.ZodType>, description: string) {
  return { body: { content: { 'multipart/form-data': { schema: z.object(fields) } }, description, required: true } };
}

/** An answer that is a file or a stream rather than JSON. */
export function rawResponse(contentType: string, description: string) {
  return { content: { [contentType]: { schema: { type: 'string' as const, format: 'binary' } } }, description };
}
