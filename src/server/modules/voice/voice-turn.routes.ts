// Open mic's own hands-free loop, one request per turn: POST /api/personalities/{id}/voice/turn
// takes the person's recording (multipart: an optional `request` JSON field with the chat's
// conversationId or an anonymous visitor's history, then the `audio` WAV) and answers NDJSON
// (shared/voice-turn-stream.ts): the transcript, the grounded chat's events (the chat service's
// own run: the same saved conversation, moderation and saving rules as the chat route), and the
// reply's speech sentence by sentence as the text arrives (WAV as the provider streams it). Three round trips, three access checks
// and the client's gaps between them were most of a turn's latency; the limits of the three routes
// it replaces are still counted with their messages. Refusals (429, 404, 400, 422 NO_SPEECH) come
// before any line; disconnecting (barge-in) cancels the model call and the speech in flight.
import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import type { AppEnv, Viewer } from '../../auth/session';
import { AppError } from '../../lib/errors';
import { createRoute, z } from '@hono/zod-openapi';
import { createRouter, describeRoutes, errorResponses, multipartBody, personalityIdParam, rawResponse } from '../../lib/openapi';
import { timed } from '../../lib/server-timing';
import { readSingleFileForm } from '../../lib/single-file-form';
import { messages } from '../../../shared/messages';
import { limits as appLimits } from '../../../shared/limits';
import { chatRequestSchema } from '../../../shared/schemas/conversations';
import type { VoiceTurnEvent } from '../../../shared/voice-turn-stream';
import type { ChatRun } from '../conversations/chat-run';
import type { ExchangeInput } from '../conversations/chat.service';
import { AUDIO_MAX_BYTES, type VoiceService } from './voice.service';
import { createSpokenReply } from './spoken-reply';
import { speechVisitor } from './speech-visitor';

/** Counts one hit of a rate limit for this request; throws RATE_LIMITED past it. */
export type LimitCounter = (c: Context<AppEnv>) => Promise<void>;

export interface VoiceTurnDeps {
  voice: VoiceService;
  /** The chat service's start (conversations module); it checks access again in its one read. */
  startChat(viewer: Viewer | null, personalityId: string, input: ExchangeInput, startedAt: number): Promise<ChatRun>;
  /**
   * The limits of the routes a turn stands for: `turn` counts the transcribe and chat limits in one
   * statement and gives each one's refusal (or undefined), in that order; `speech`, one hit per sentence.
   */
  limits: { turn: (c: Context<AppEnv>) => Promise<(AppError | undefined)[]>; speech: LimitCounter };
}

const turnId = z.uuid();
const turnRequestSchema = chatRequestSchema.pick({ conversationId: true, conversationHistory: true }).extend({
  /** The page's id for this turn: its question is saved under it. */
  turnId: turnId.optional(),
  /** Turns the page withdrew (the person went on speaking) whose audio this one carries: what a late cancel left of them is removed. */
  replaces: z.array(turnId).max(appLimits.voiceTurnReplacesMax).optional(),
});
/** An anonymous visitor's history (at most chatHistoryMaxChars of text, JSON-escaped). */
const REQUEST_FIELD_MAX = 64 * 1024;

const TURN_PATH = /^\/api\/personalities\/[^/]+\/voice\/turn\/?$/;
/** The turn's multipart body skips the API's small JSON body limit (it has its own). */
export const isVoiceTurnPath = (method: string, path: string) => method === 'POST' && TURN_PATH.test(path);

/** The voice routes answer their limit with the spec's voice message. */
async function asVoiceLimit(counting: Promise<void>): Promise<void> {
  try {
    await counting;
  } catch (err) {
    if (err instanceof AppError && err.code === 'RATE_LIMITED') throw new AppError('VOICE_RATE_LIMITED', undefined, { details: err.details });
    throw err;
  }
}

async function readTurnForm(request: Request): Promise<{ audio: Uint8Array; input: Pick<ExchangeInput, 'conversationId' | 'conversationHistory' | 'turnId' | 'replaces'> }> {
  const read = await readSingleFileForm(request, AUDIO_MAX_BYTES, { fieldMaxBytes: REQUEST_FIELD_MAX });
  if (!read.ok) {
    if (read.reason === 'too-large') {
      const bytes = Number(request.headers.get('content-length') ?? AUDIO_MAX_BYTES + 1);
      throw new AppError('AUDIO_TOO_LARGE', messages.voice.audioTooLarge((bytes / (1024 * 1024)).toFixed(1)), { details: { bytes, maxBytes: AUDIO_MAX_BYTES } });
    }
    throw new AppError('BAD_AUDIO', messages.voice.truncatedAudio, { details: { reason: read.reason } });
  }
  const { fields, file } = read.form;
  if (!file) throw new AppError('BAD_AUDIO', messages.voice.truncatedAudio, { details: { reason: 'no-audio' } });
  let raw: unknown = {};
  try {
    raw = fields.request ? JSON.parse(fields.request) : {};
  } catch {
    throw new AppError('BAD_REQUEST', messages.errors.badJson);
  }
  const parsed = turnRequestSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? messages.errors.invalidInput);
  return { audio: new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), input: parsed.data };
}

export function voiceTurnRoutes(deps: VoiceTurnDeps) {
  const { voice } = deps;
  const described = createRoute({
    method: 'post',
    path: '/{id}/voice/turn',
    tags: ['voice'],
    summary: "One open-mic turn: the recording in, the transcript, the chat's events and the reply's speech out (NDJSON, shared/voice-turn-stream.ts)",
    request: {
      ...personalityIdParam,
      ...multipartBody(
        {
          request: z.string().optional().describe("JSON: { conversationId } or an anonymous visitor's { conversationHistory }; open mic adds { turnId, replaces }"),
          audio: z.any().describe('The recording, WAV'),
        },
        'The turn',
      ),
    },
    responses: { 200: rawResponse('application/x-ndjson', 'Events, one JSON object per line'), ...errorResponses },
  });
  return describeRoutes(createRouter(), [described]).post('/:id/voice/turn', async (c) => {
    const viewer = c.get('viewer') ?? null;
    const id = c.req.param('id');
    // The speech-to-text and chat limits are counted (one statement) beside the access check; a refusal is the answer.
    const counted = deps.limits.turn(c);
    const access = timed(c, 'access', () => voice.visiblePersonality(id, viewer?.id ?? null));
    access.catch(() => {}); // awaited below, after the limits' verdicts
    // The audio arrives while those are checked; nothing is sent to a provider before they pass,
    // and a bad body is only reported after them (429, then 404, then 413/400).
    const body = timed(c, 'body', () => readTurnForm(c.req.raw));
    body.catch(() => {});
    const [transcribeRefused, chatRefused] = await counted;
    if (transcribeRefused) await asVoiceLimit(Promise.reject(transcribeRefused));
    if (chatRefused) throw chatRefused;
    const personality = await access;
    const { audio, input } = await body;
    const transcript = await timed(c, 'stt', () => voice.transcribe(audio, c.req.raw.signal, personality));
    const message = transcript.text.slice(0, appLimits.chatMessageMax);
    const run = await timed(c, 'prepare', () =>
      deps.startChat(viewer, id, { ...input, message, pronunciationReport: transcript.pronunciation }, performance.now()),
    );
    // Withdrawn before its exchange began (open mic: the person went on speaking, and the page will
    // send this audio again joined to what followed): nothing is saved, so that joined turn is the
    // only question. (Saving starts with the exchange's events, below.)
    if (c.req.raw.signal.aborted) return c.body(null, 204);

    const abort = new AbortController();
    const requestSignal = c.req.raw.signal;
    const onRequestAbort = () => abort.abort();
    if (requestSignal.aborted) abort.abort();
    else requestSignal.addEventListener('abort', onRequestAbort, { once: true });
    c.header('Content-Type', 'application/x-ndjson; charset=utf-8');
    c.header('Cache-Control', 'no-cache, no-transform');
    c.header('X-Accel-Buffering', 'no');
    return stream(c, async (out) => {
      out.onAbort(() => abort.abort());
      const write = (event: VoiceTurnEvent) => out.write(`${JSON.stringify(event)}\n`);
      // The first sentence's speech hit is counted while the model starts, not after its text.
      let firstHit: Promise<void> | undefined = asVoiceLimit(deps.limits.speech(c));
      firstHit.catch(() => {}); // awaited by the first sentence
      // Each sentence of a paid voice is taken from the same daily budget as the speech route's.
      const visitor = speechVisitor(c);
      const spoken = createSpokenReply({
        signal: abort.signal,
        emit: write,
        // Called for one sentence at a time until the one before has been counted (spoken-reply.ts).
        speak: async (text, signal, counted) => {
          const hit = firstHit ?? asVoiceLimit(deps.limits.speech(c));
          firstHit = undefined;
          await hit;
          const speech = await voice.speech(personality, text, signal, { fastDecode: true, visitor, onCounted: counted });
          return { mime: speech.mime, stream: speech.stream, volume: speech.volume, provider: speech.provider };
        },
      });
      try {
        await write({ type: 'transcript', text: message, engine: transcript.engine, approximate: transcript.approximate, pronunciation: transcript.pronunciation });
        let reply = '';
        // The last sentence is spoken as soon as the model has finished, while the reply is checked and saved.
        for await (const event of run.events(abort.signal, { onReplyComplete: (text) => spoken.finish(text) })) {
          if (abort.signal.aborted) break;
          await write(event);
          if (event.type === 'delta') spoken.push((reply += event.text));
          else if (event.type === 'done') spoken.finish(event.content);
          // A reply that broke off is spoken as far as it came; otherwise the fallback replaces it.
          else if (event.type === 'error') event.partial ? spoken.finish(event.fallback) : spoken.replaceWith(event.fallback);
        }
        await spoken.done();
      } finally {
        requestSignal.removeEventListener('abort', onRequestAbort);
      }
    });
  });
}
