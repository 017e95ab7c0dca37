// Test support: the documents and questions routes answering in the API's real JSON shapes
// (shared/schemas), layered on the app's fake API through its override hook. Stateful, so a test
// can delete a document and see it gone, or change a status and see the list follow it.
import { messages } from '../../../../shared/messages';
import type { ChunkDto, DocumentDto, SourceView } from '../../../../shared/schemas/documents';
import type { PersonalityQuestion } from '../../../../shared/schemas/conversations';
import { fakeApi, type FakeAnswer, type FakeCall, type FakeUser } from '../../../test-support/fake-api';

export const personalityId = '7d3c1a52-0000-4000-8000-0000000000d1';
const stamp = '2026-01-02T03:04:05.000Z';

let seq = 0;
export function makeDocument(overrides: Partial<DocumentDto> = {}): DocumentDto {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    personalityId,
    fileName: `doc-${seq}.txt`,
    mimeType: 'text/plain',
    sizeBytes: 2048,
    sourceUrl: null,
    isPrivate: false,
    heldForReview: false,
    status: 'ready',
    progress: 100,
    error: null,
    hasContent: true,
    chunkCount: 2,
    embeddedCount: 0,
    createdAt: stamp,
    updatedAt: stamp,
    ...overrides,
  };
}

export function makeChunks(count: number, text = (i: number) => `Passage number ${i + 1}.`): ChunkDto[] {
  return Array.from({ length: count }, (_, i) => ({ id: `chunk-${i}`, chunkIndex: i, content: text(i) }));
}

export const apiError = (status: number, code: string, message: string): FakeAnswer => ({
  status,
  body: { error: { code, message } },
});

export interface DocumentsStubOptions {
  user: FakeUser | null;
  name?: string;
  isOwner?: boolean;
  /** GET /api/personalities/{id} answers 404 (not visible). */
  hidden?: boolean;
  documents?: DocumentDto[];
  chunks?: Record<string, ChunkDto[]>;
  source?: SourceView | FakeAnswer;
  questions?: PersonalityQuestion[];
  /** Replace one answer (a failure, a pending promise); return undefined to keep the stub's. */
  override?: (call: FakeCall) => FakeAnswer | undefined | Promise<FakeAnswer | undefined>;
}

export function stubDocumentsApi(options: DocumentsStubOptions) {
  const state = {
    documents: [...(options.documents ?? [])],
    chunks: { ...(options.chunks ?? {}) },
    questions: [...(options.questions ?? [])],
  };
  const base = `/api/personalities/${personalityId}`;
  const name = options.name ?? 'Ada Lovelace';

  const findDoc = (id: string) => state.documents.find((d) => d.id === id);
  const docRoute = (path: string) => {
    const m = new RegExp(`^${base}/documents/([^/]+)(?:/(process|rechunk|chunks|source))?$`).exec(path);
    return m ? { id: m[1]!, action: m[2] ?? '' } : null;
  };

  const answer = (call: FakeCall): FakeAnswer | undefined => {
    const { method, path } = call;
    if (method === 'GET' && path === base) {
      if (options.hidden) return apiError(404, 'NOT_FOUND', messages.personality.notFound);
      return { status: 200, body: { personality: { id: personalityId, name, isOwner: options.isOwner ?? true } } };
    }
    if (method === 'GET' && path === `${base}/documents`) return { status: 200, body: { documents: state.documents } };
    if (method === 'POST' && path === `${base}/documents/url`) {
      const doc = makeDocument({ fileName: 'Imported article', sourceUrl: String((call.body as { url: string }).url), status: 'processing', progress: 0 });
      state.documents.unshift(doc);
      return { status: 201, body: { document: doc } };
    }
    if (method === 'GET' && path === `${base}/questions`) return { status: 200, body: { questions: state.questions } };
    if (method === 'DELETE' && path === `${base}/questions`) {
      const before = Date.parse(call.query.get('before') ?? '');
      const kept = state.questions.filter((q) => Date.parse(q.askedAt) >= before);
      const deleted = state.questions.length - kept.length;
      state.questions = kept;
      return { status: 200, body: { deleted } };
    }
    const route = docRoute(path);
    if (!route) return undefined;
    if (route.action === 'source') {
      const source = options.source;
      if (!source) return apiError(404, 'NOT_FOUND', messages.documents.chunkUnavailable);
      return 'status' in source && 'body' in source ? source : { status: 200, body: source };
    }
    const doc = findDoc(route.id);
    if (!doc) return apiError(404, 'NOT_FOUND', messages.documents.notFound);
    const replace = (next: DocumentDto) => {
      state.documents = state.documents.map((d) => (d.id === next.id ? next : d));
      return next;
    };
    if (method === 'POST' && (route.action === 'process' || route.action === 'rechunk')) {
      return { status: 202, body: { document: replace({ ...doc, status: 'processing', progress: 0 }) } };
    }
    if (method === 'PATCH' && route.action === '') {
      return { status: 200, body: { document: replace({ ...doc, isPrivate: Boolean((call.body as { isPrivate: boolean }).isPrivate) }) } };
    }
    if (method === 'DELETE' && route.action === '') {
      state.documents = state.documents.filter((d) => d.id !== doc.id);
      return { status: 200, body: { ok: true } };
    }
    if (method === 'GET' && route.action === 'chunks') {
      const all = state.chunks[doc.id] ?? [];
      const offset = Number(call.query.get('offset') ?? 0);
      const limit = Number(call.query.get('limit') ?? 100);
      return { status: 200, body: { document: doc, chunks: all.slice(offset, offset + limit), total: all.length, offset, limit } };
    }
    return undefined;
  };

  const fake = fakeApi({
    user: options.user,
    override: async (call) => (await options.override?.(call)) ?? answer(call),
  });
  return { ...fake, state, base };
}
