// "Send Prompt" must send exactly what the preview showed, yet the client must not be able to
// write its own system prompt. The preview id is the previewed prompt itself, signed by the
// server (HMAC-SHA256 with a key derived from the auth secret) and bound to the asker, the
// personality, the conversation and the message, with a short expiry. Stateless, so it works
// across app processes.
import crypto from 'node:crypto';
import type { ChatTurn } from '../../ai/providers';
import type { DocumentReference } from '../../../shared/schemas/conversations';
import type { RetrievedPassage } from './retrieval';

export interface PreviewPayload {
  personalityId: string;
  viewerId: string | null;
  conversationId: string | null;
  message: string;
  messages: ChatTurn[];
  documents: DocumentReference[];
  passages: Pick<RetrievedPassage, 'fileName' | 'chunkIndex' | 'content' | 'similarity' | 'bestSentence' | 'sentenceSimilarity'>[];
  documentsProcessing: boolean;
  expiresAt: number;
}

export function createPreviewSigner(secret: string) {
  const key = crypto.createHmac('sha256', secret).update('kindred chat preview v1').digest();
  const sign = (body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url');
  return {
    sign(payload: PreviewPayload): string {
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    /** The payload when the signature is valid and it has not expired; undefined otherwise. */
    verify(token: string, nowMs: number): PreviewPayload | undefined {
      const dot = token.indexOf('.');
      if (dot <= 0) return undefined;
      const body = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1));
      const expected = Buffer.from(sign(body));
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
      try {
        const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PreviewPayload;
        return payload.expiresAt > nowMs ? payload : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export type PreviewSigner = ReturnType<typeof createPreviewSigner>;
