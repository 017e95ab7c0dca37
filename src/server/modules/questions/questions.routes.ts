// The owner's "User Questions": latest 50, newest first; delete those strictly before a date.
// Anonymous 401; a visible non-owner 403; anyone else 404.
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonResponse } from '../../lib/openapi';
import { requireViewer } from '../../auth/session';
import {
  deleteQuestionsQuerySchema,
  deleteQuestionsResponseSchema,
  questionListSchema,
} from '../../../shared/schemas/conversations';
import type { QuestionService } from './questions.service';

const tags = ['questions'];
const idParams = z.object({ id: z.string() });

const list = createRoute({
  method: 'get',
  path: '/{id}/questions',
  tags,
  summary: 'Questions asked of this personality (owner): the latest 50, newest first',
  request: { params: idParams },
  responses: { 200: jsonResponse(questionListSchema, 'Questions'), ...errorResponses },
});
const removeBefore = createRoute({
  method: 'delete',
  path: '/{id}/questions',
  tags,
  summary: 'Delete questions asked strictly before ?before= (ISO date-time, or YYYY-MM-DD as midnight UTC) (owner)',
  request: { params: idParams, query: deleteQuestionsQuerySchema },
  responses: { 200: jsonResponse(deleteQuestionsResponseSchema, 'How many were deleted'), ...errorResponses },
});

export function questionRoutes(service: QuestionService) {
  return createRouter()
    .openapi(list, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ questions: await service.list(viewer, c.req.valid('param').id) }, 200);
    })
    .openapi(removeBefore, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const deleted = await service.deleteBefore(viewer, c.req.valid('param').id, c.req.valid('query').before);
      return c.json({ deleted }, 200);
    });
}
