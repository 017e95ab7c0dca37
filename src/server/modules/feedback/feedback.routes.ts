import { createRoute, z } from '@hono/zod-openapi';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { feedbackSchema } from '../../../shared/schemas/feedback';
import { rateLimit } from '../rate-limits/rate-limits.middleware';
import { insertFeedback } from './feedback.repository';

const submit = createRoute({
  method: 'post',
  path: '/',
  tags: ['feedback'],
  summary: 'Submit feedback (signed in or not)',
  request: jsonBody(feedbackSchema),
  responses: { 201: jsonResponse(z.object({ id: z.string() }), 'Saved'), ...errorResponses },
});

/** Keeps only an http(s) page URL; anything else is dropped rather than stored. */
function safePageUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

export function feedbackRoutes(db: Database, clock: Clock, perHour: number) {
  const router = createRouter();
  router.use('/', rateLimit(db, clock, { endpoint: 'feedback', max: perHour, windowSeconds: 3600 }));
  return router.openapi(submit, async (c) => {
    const input = c.req.valid('json');
    const id = await insertFeedback(db, {
      userId: c.get('viewer')?.id ?? null,
      category: input.category,
      rating: input.rating,
      feedback: input.feedback,
      userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null,
      url: safePageUrl(input.url ?? c.req.header('referer')),
    });
    return c.json({ id }, 201);
  });
}
