// Open mic's voice turn: one request carries the recording and answers, as it happens, the
// transcript, the chat's reply and its speech sentence by sentence (shared/voice-turn-stream.ts).
// startVoiceTurn resolves once the transcript is in (refusals, NO_SPEECH included, are thrown
// as ApiError; a connection that fails or is lost before the transcript as NETWORK, with the
// spec's network error: the call drops with it); the rest is read with `read`. Aborting `signal`
// cancels the turn on the server too (the model call and the speech in flight).
import { ApiError, watchAnswer } from '../../../lib/api-client';
import { messages } from '../../../../shared/messages';
import type { HistoryItem } from '../../../../shared/schemas/conversations';
import { createTurnStreamParser, type VoiceTurnEvent } from '../../../../shared/voice-turn-stream';
import { apiError, type Transcript } from './voice-api';

/** What the chat route would be sent besides the message: the saved conversation, or an anonymous visitor's history. */
export interface TurnContext {
  conversationId?: string;
  conversationHistory?: HistoryItem[];
  /** Open mic: this turn's id (its saved question's) and the withdrawn turns it carries the audio of. */
  turnId?: string;
  replaces?: string[];
}

export interface VoiceTurn {
  transcript: Transcript;
  /** The rest of the answer, event by event; resolves when it ends (rejects if the connection fails). */
  read(onEvent: (event: VoiceTurnEvent) => void): Promise<void>;
}

/** fetch threw (no answer from the server) or the answer broke off: the network, unless the turn was cancelled. */
function networkFailure(err: unknown, signal: AbortSignal): unknown {
  return signal.aborted ? err : new ApiError(0, 'NETWORK', messages.openMic.networkError);
}

export async function startVoiceTurn(personalityId: string, wav: Uint8Array<ArrayBuffer>, context: TurnContext, signal: AbortSignal): Promise<VoiceTurn> {
  const form = new FormData();
  // The chat's context first: the server knows it before the audio arrives.
  if (context.conversationId || context.conversationHistory?.length || context.turnId) form.append('request', JSON.stringify(context));
  form.append('audio', new Blob([wav], { type: 'audio/wav' }), 'turn.wav');
  const path = `/api/personalities/${encodeURIComponent(personalityId)}/voice/turn`;
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', credentials: 'same-origin', body: form, signal });
  } catch (err) {
    throw networkFailure(err, signal);
  }
  // As for every other call: a 401 tells the app the session may have ended, a 404 that the
  // personality is gone (its conversation gives way to "This personality is not available.").
  watchAnswer(res.status, path);
  if (!res.ok || !res.body) throw await apiError(res, messages.voice.processRecordingFailed);
  const reader = res.body.getReader();
  const parser = createTurnStreamParser();
  const decoder = new TextDecoder();
  let pending: VoiceTurnEvent[] = [];
  let transcript: Transcript | undefined;
  while (!transcript) {
    const { done, value } = await reader.read().catch((err: unknown) => {
      throw networkFailure(err, signal);
    });
    if (done) throw new ApiError(502, 'STT_EMPTY', messages.voice.sttEmpty);
    for (const event of parser.feed(decoder.decode(value, { stream: true }))) {
      if (!transcript && event.type === 'transcript') transcript = event;
      else pending.push(event);
    }
  }
  return {
    transcript,
    async read(onEvent) {
      for (const event of pending) onEvent(event);
      pending = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const event of parser.feed(decoder.decode(value, { stream: true }))) onEvent(event);
      }
      for (const event of parser.feed(decoder.decode(), true)) onEvent(event);
    },
  };
}
