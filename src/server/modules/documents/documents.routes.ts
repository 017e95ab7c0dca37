// The documents API under /api/personalities/{id}: owner-only management (a visible non-owner
// gets 403, anyone else 404, anonymous 401), and two read routes for anyone who may see the
// personality: the source view and the knowledge summary.
import { Readable } from 'node:stream';
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, describeRoutes, errorResponses, jsonBody, jsonResponse, personalityIdParam, rawResponse } from '../../lib/openapi';
import { requireViewer } from '../../auth/session';
import type { Logger } from '../../lib/logger';
import { okSchema, errorResponseSchema } from '../../../shared/schemas/common';
import {
  chunkPageQuerySchema,
  chunkPageSchema,
  documentListSchema,
  documentResponseSchema,
  importUrlSchema,
  knowledgeSummarySchema,
  setPrivacySchema,
  sourceViewQuerySchema,
  sourceViewSchema,
  uploadResponseSchema,
} from '../../../shared/schemas/documents';
import type { DocumentsModule } from './documents.module';
import { handleUpload } from './documents-upload';
import { handleAudioUpload } from './documents-audio-upload';
import { documentEventsHandler } from './documents-stream';

const tags = ['documents'];
const idParams = z.object({ id: z.string() });
const docParams = z.object({ id: z.string(), documentId: z.string() });
const tooLarge = { 413: { content: { 'application/json': { schema: errorResponseSchema } }, description: 'Body over the upload cap' } };
const conflict = { 409: { content: { 'application/json': { schema: errorResponseSchema } }, description: 'Already being processed' } };

const audioUpload = createRoute({
  method: 'post',
  path: '/{id}/documents/audio',
  tags,
  summary: 'Upload one audio file (MP3, WAV or M4A, up to 20 MB; field "file", optional "title" and isPrivate) to be transcribed into a document (owner)',
  request: {
    params: idParams,
    body: {
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', format: 'binary' }, title: { type: 'string' }, isPrivate: { type: 'string', enum: ['true', 'false'] } },
          },
        },
      },
      required: true,
    },
  },
  responses: { 201: jsonResponse(documentResponseSchema, 'The document, queued for transcription'), ...errorResponses, ...tooLarge },
});
const audioFile = createRoute({
  method: 'get',
  path: '/{id}/documents/{documentId}/audio',
  tags,
  summary: 'The original audio of a transcribed document (owner)',
  request: { params: docParams },
  responses: { 200: { description: 'The audio bytes', content: { 'audio/mpeg': { schema: { type: 'string', format: 'binary' } } } }, ...errorResponses },
});
const list = createRoute({
  method: 'get',
  path: '/{id}/documents',
  tags,
  summary: 'The personality’s documents, newest first (owner)',
  request: { params: idParams },
  responses: { 200: jsonResponse(documentListSchema, 'Documents with status and progress'), ...errorResponses },
});
const upload = createRoute({
  method: 'post',
  path: '/{id}/documents',
  tags,
  summary: 'Upload files (multipart field "files", several allowed; optional field isPrivate=true) (owner)',
  request: {
    params: idParams,
    // A plain schema (not zod): documented, but the body is streamed by the handler, not parsed up front.
    body: {
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } }, isPrivate: { type: 'string', enum: ['true', 'false'] } },
          },
        },
      },
      required: true,
    },
  },
  responses: { 200: jsonResponse(uploadResponseSchema, 'One result per file, in order'), ...errorResponses, ...tooLarge },
});
const importUrl = createRoute({
  method: 'post',
  path: '/{id}/documents/url',
  tags,
  summary: 'Import an article by URL (owner)',
  request: { params: idParams, ...jsonBody(importUrlSchema) },
  responses: { 201: jsonResponse(documentResponseSchema, 'Imported and queued'), ...errorResponses },
});
const processDoc = createRoute({
  method: 'post',
  path: '/{id}/documents/{documentId}/process',
  tags,
  summary: 'Extract, chunk and embed again (owner)',
  request: { params: docParams },
  responses: { 202: jsonResponse(documentResponseSchema, 'Queued'), ...errorResponses, ...conflict },
});
const rechunk = createRoute({
  method: 'post',
  path: '/{id}/documents/{documentId}/rechunk',
  tags,
  summary: 'Chunk and embed the extracted text again (owner)',
  request: { params: docParams },
  responses: { 202: jsonResponse(documentResponseSchema, 'Queued'), ...errorResponses, ...conflict },
});
const privacy = createRoute({
  method: 'patch',
  path: '/{id}/documents/{documentId}',
  tags,
  summary: 'Make a document private or not (owner)',
  request: { params: docParams, ...jsonBody(setPrivacySchema) },
  responses: { 200: jsonResponse(documentResponseSchema, 'Updated'), ...errorResponses },
});
const remove = createRoute({
  method: 'delete',
  path: '/{id}/documents/{documentId}',
  tags,
  summary: 'Delete a document with its stored file, chunks and embeddings (owner)',
  request: { params: docParams },
  responses: { 200: jsonResponse(okSchema, 'Deleted'), ...errorResponses },
});
const chunks = createRoute({
  method: 'get',
  path: '/{id}/documents/{documentId}/chunks',
  tags,
  summary: 'A page of a document’s chunks in order (owner)',
  request: { params: docParams, query: chunkPageQuerySchema },
  responses: { 200: jsonResponse(chunkPageSchema, 'Chunks'), ...errorResponses },
});
const source = createRoute({
  method: 'get',
  path: '/{id}/documents/{documentId}/source',
  tags,
  summary: 'Read-only source view around a referenced chunk (anyone who may see the personality; private documents only for the owner)',
  request: { params: docParams, query: sourceViewQuerySchema },
  responses: { 200: jsonResponse(sourceViewSchema, 'Chunks around the reference'), ...errorResponses },
});
const knowledge = createRoute({
  method: 'get',
  path: '/{id}/knowledge',
  tags,
  summary: 'Knowledge Base summary: what the asker’s conversations may use',
  request: { params: idParams },
  responses: { 200: jsonResponse(knowledgeSummarySchema, 'Counts'), ...errorResponses },
});

export function documentRoutes(documents: DocumentsModule, logger: Logger) {
  const { service } = documents;
  const router = createRouter()
    .openapi(list, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ documents: await service.list(viewer, c.req.valid('param').id) }, 200);
    })
    .openapi(upload, (c) => handleUpload(c, service, logger, c.req.valid('param').id) as never)
    .openapi(audioUpload, (c) => handleAudioUpload(c, service, documents.transcriber, c.req.valid('param').id) as never)
    .openapi(audioFile, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { id, documentId } = c.req.valid('param');
      const audio = await service.audioFile(viewer, id, documentId);
      return new Response(Readable.toWeb(audio.stream) as ReadableStream<Uint8Array>, {
        status: 200,
        headers: {
          'content-type': audio.mimeType,
          'content-length': String(audio.size),
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        },
      }) as never;
    })
    .openapi(importUrl, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      return c.json({ document: await documents.importUrl(viewer, c.req.valid('param').id, c.req.valid('json')) }, 201);
    })
    .openapi(processDoc, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { id, documentId } = c.req.valid('param');
      return c.json({ document: await service.process(viewer, id, documentId) }, 202);
    })
    .openapi(rechunk, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { id, documentId } = c.req.valid('param');
      return c.json({ document: await service.rechunk(viewer, id, documentId) }, 202);
    })
    .openapi(privacy, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { id, documentId } = c.req.valid('param');
      return c.json({ document: await service.setPrivacy(viewer, id, documentId, c.req.valid('json').isPrivate) }, 200);
    })
    .openapi(remove, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { id, documentId } = c.req.valid('param');
      await service.remove(viewer, id, documentId);
      return c.json({ ok: true as const }, 200);
    })
    .openapi(chunks, async (c) => {
      const viewer = requireViewer(c.get('viewer'));
      const { id, documentId } = c.req.valid('param');
      const { offset, limit } = c.req.valid('query');
      return c.json(await service.chunks(viewer, id, documentId, offset, limit), 200);
    })
    .openapi(source, async (c) => {
      const { id, documentId } = c.req.valid('param');
      return c.json(await service.source(c.get('viewer'), id, documentId, c.req.valid('query').chunk), 200);
    })
    .openapi(knowledge, async (c) => c.json(await service.knowledge(c.get('viewer'), c.req.valid('param').id), 200));
  // The live stream is plain SSE (EventSource), outside the typed JSON routes.
  describeRoutes(router, [
    createRoute({
      method: 'get',
      path: '/{id}/documents/events',
      tags: ['documents'],
      summary: "The owner's documents as they change (Server-Sent Events: `documents` with the list; `gone` or `signed-out` when access ends)",
      request: personalityIdParam,
      responses: { 200: rawResponse('text/event-stream', 'Event stream'), ...errorResponses },
    }),
  ]);
  router.get('/:id/documents/events', documentEventsHandler(documents, documents.maxEventStreamsPerClient));
  return router;
}
