// Character card routes, mounted under /api/personalities:
//   POST /import/preview  (signed in; multipart "file")  what would be imported, nothing created
//   POST /import          (signed in; multipart "file")  creates a private personality, 201
//   GET  /{id}/export.json, /{id}/export.png             the owner's card download
//   GET  /{id}/avatar                                    the image, for whoever may see the personality
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, describeRoutes, errorResponses, jsonResponse, multipartBody, personalityIdParam, rawResponse } from '../../lib/openapi';
import { cardPreviewResponseSchema } from '../../../shared/schemas/character-card';
import { personalityResponseSchema } from '../../../shared/schemas/personality';
import { requireViewer } from '../../auth/session';
import type { CharacterCardService } from './character-cards.service';
import { readCardUpload } from './card-upload';
import { attachmentDisposition } from './card-export';

const cardFile = multipartBody({ file: z.any().describe('A character card: PNG with embedded data, or JSON (V1, V2 or V3)') }, 'The card');
const tags = ['character cards'];
const described = [
  createRoute({ method: 'post', path: '/import/preview', tags, summary: 'What importing this card would create (nothing is created)', request: cardFile, responses: { 200: jsonResponse(cardPreviewResponseSchema, 'Preview'), ...errorResponses } }),
  createRoute({ method: 'post', path: '/import', tags, summary: 'Import a character card as a new private personality', request: cardFile, responses: { 201: jsonResponse(personalityResponseSchema, 'Created'), ...errorResponses } }),
  createRoute({ method: 'get', path: '/{id}/export.json', tags, summary: "The owner's personality as a Character Card V2 (JSON download)", request: personalityIdParam, responses: { 200: rawResponse('application/json', 'Card file'), ...errorResponses } }),
  createRoute({ method: 'get', path: '/{id}/export.png', tags, summary: "The owner's personality as a PNG card (download)", request: personalityIdParam, responses: { 200: rawResponse('image/png', 'Card image'), ...errorResponses } }),
  createRoute({ method: 'get', path: '/{id}/avatar', tags, summary: "The personality's image, for whoever may see it", request: personalityIdParam, responses: { 200: rawResponse('image/png', 'Image'), ...errorResponses } }),
];

export function characterCardRoutes(service: CharacterCardService) {
  return describeRoutes(createRouter(), described)
    .post('/import/preview', async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const bytes = await readCardUpload(c);
      return c.json({ preview: service.preview(viewer, bytes) }, 200);
    })
    .post('/import', async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const bytes = await readCardUpload(c);
      return c.json({ personality: await service.import(viewer, bytes) }, 201);
    })
    .get('/:id/export.json', async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const file = await service.export(viewer, c.req.param('id'), 'json');
      c.header('Content-Disposition', attachmentDisposition(file.fileName));
      c.header('Cache-Control', 'private, no-store');
      return c.body(file.body as string, 200, { 'Content-Type': file.contentType });
    })
    .get('/:id/export.png', async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const file = await service.export(viewer, c.req.param('id'), 'png');
      c.header('Content-Disposition', attachmentDisposition(file.fileName));
      c.header('Cache-Control', 'private, no-store');
      return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': file.contentType });
    })
    .get('/:id/avatar', async (c) => {
      const png = await service.avatar(c.get('viewer'), c.req.param('id'));
      c.header('Cache-Control', 'private, max-age=300');
      c.header('Content-Disposition', 'inline; filename="avatar.png"');
      return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png' });
    });
}
