// Helpers for the conversation tests (not a test file): personalities, documents and chunks
// written straight into the database (independent of the upload pipeline), and a chat client
// that reads the SSE reply into events.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../db/client';
import { personalities } from '../../db/schema/personalities';
import { personalityDocumentChunks } from '../../db/schema/documents';
import { insertDocument } from '../documents/documents.repository';
import { personalityShares } from '../../db/schema/sharing';
import type { TestClient } from '../../test-support/test-server';
import { createChatStreamParser, type ChatStreamEvent } from '../../../shared/chat-stream';

export async function createPersonality(owner: TestClient, name: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await owner.post('/api/personalities', { name, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.personality.id as string;
}

export async function makePublic(db: Database, personalityId: string): Promise<void> {
  await db.update(personalities).set({ sharingType: 'public', isPublic: true }).where(eq(personalities.id, personalityId));
}

export async function shareDirectly(db: Database, personalityId: string, ownerId: string, withUserId: string): Promise<void> {
  await db.update(personalities).set({ sharingType: 'shared' }).where(eq(personalities.id, personalityId));
  await db.insert(personalityShares).values({ personalityId, sharedWithUserId: withUserId, sharedByUserId: ownerId });
}

export async function unshareDirectly(db: Database, personalityId: string, withUserId: string): Promise<void> {
  await db
    .delete(personalityShares)
    .where(and(eq(personalityShares.personalityId, personalityId), eq(personalityShares.sharedWithUserId, withUserId)));
}

export interface SeedDocument {
  personalityId: string;
  fileName: string;
  chunks: string[];
  isPrivate?: boolean;
  processingState?: 'idle' | 'queued' | 'processing' | 'failed';
}

/** A document with its chunks (0-based chunk_index), as the pipeline would leave it. */
export async function seedDocument(db: Database, doc: SeedDocument): Promise<string> {
  const row = await insertDocument(db, {
    personalityId: doc.personalityId,
    fileName: doc.fileName,
    content: doc.chunks.join('\n\n'),
    isPrivate: doc.isPrivate ?? false,
    processingState: doc.processingState ?? 'idle',
    chunkCount: doc.chunks.length,
  });
  if (doc.chunks.length > 0) {
    await db.insert(personalityDocumentChunks).values(
      doc.chunks.map((content, chunkIndex) => ({ documentId: row!.id, personalityId: doc.personalityId, chunkIndex, content })),
    );
  }
  return row!.id;
}

export interface ChatResult {
  status: number;
  /** JSON error body when the request was refused before streaming. */
  body?: any;
  events: ChatStreamEvent[];
  /** The streamed text (all delta events joined). */
  text: string;
  contentType: string | null;
}

/** POSTs a chat message and reads the whole SSE reply. */
export async function chat(client: TestClient, personalityId: string, body: Record<string, unknown>): Promise<ChatResult> {
  const res = await client.raw(`/api/personalities/${personalityId}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const contentType = res.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, events: [], text: '', contentType };
  }
  const parser = createChatStreamParser();
  const events = parser.feed((await res.text()) + '\n\n');
  const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
  return { status: res.status, events, text, contentType };
}

/**
 * A chat's SSE reply read as it arrives, for tests that act mid-reply (stop it, delete the
 * personality): `until` reads on until the events so far satisfy `enough` (false if the stream
 * ended first); `toEnd` reads the rest.
 */
export function chatEventReader(res: Response) {
  const reader = res.body!.getReader();
  const parser = createChatStreamParser();
  const decoder = new TextDecoder();
  const events: ChatStreamEvent[] = [];
  async function until(enough: (events: ChatStreamEvent[]) => boolean): Promise<boolean> {
    while (!enough(events)) {
      const { value, done } = await reader.read();
      if (done) return false;
      events.push(...parser.feed(decoder.decode(value, { stream: true })));
    }
    return true;
  }
  return {
    events,
    until,
    toEnd: () => until(() => false),
    /** The saved conversation's id, once `start` was read. */
    conversationId: () => events.flatMap((e) => (e.type === 'start' ? [e.conversationId] : []))[0] ?? null,
    /** The streamed text so far. */
    text: () => events.map((e) => (e.type === 'delta' ? e.text : '')).join(''),
  };
}

export function eventOf<T extends ChatStreamEvent['type']>(result: ChatResult, type: T): Extract<ChatStreamEvent, { type: T }> | undefined {
  return result.events.find((e) => e.type === type) as Extract<ChatStreamEvent, { type: T }> | undefined;
}
