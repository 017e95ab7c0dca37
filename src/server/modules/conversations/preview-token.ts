// "Send Prompt" must send exactly what the preview showed, yet the client must not be able to
// write its own system prompt. The preview id is the previewed prompt itself, signed by the
// server (HMAC-SHA256 with a key derived from the auth secret) and bound to the asker, the
// personality, the conversation and the message, with a short expiry. Stateless, so it works
// across app processes.
import { createTokenSigner } from '../../lib/signed-token';
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
  const tokens = createTokenSigner<PreviewPayload>(secret, 'kindred chat preview v1');
  return {
    sign: (payload: PreviewPayload): string => tokens.sign(payload),
    /** The payload when the signature is valid and it has not expired; undefined otherwise. */
    verify(token: string, nowMs: number): PreviewPayload | undefined {
      const payload = tokens.read(token);
      return payload && payload.expiresAt > nowMs ? payload : undefined;
    },
  };
}

export type PreviewSigner = ReturnType<typeof createPreviewSigner>;
