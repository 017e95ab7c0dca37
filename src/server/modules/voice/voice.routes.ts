// Voice API: capabilities (anyone), transcribe and speech on a personality (whoever may see it,
// anonymous visitors included for public ones; rate limited per user or per address), and the
// admin monitoring figures (voice credits today, recent rate-limit windows).
import { relayStream } from '../../lib/stream-relay';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Viewer } from '../../auth/session';
import { adminOnly } from '../../auth/session';
import { AppError } from '../../lib/errors';
import { createRouter, describeRoutes, errorResponses, jsonBody, jsonResponse, multipartBody, personalityIdParam, rawResponse } from '../../lib/openapi';
import { pronunciationReportSchema } from '../../../shared/schemas/pronunciation';
import { personalityResponseSchema } from '../../../shared/schemas/personality';
import { messages } from '../../../shared/messages';
import type { VoiceService } from './voice.service';
import { SPEECH_TEXT_MAX } from './voice.service';
import { readAudioBody } from './voice-upload';
import { handleVoiceClone, type VoiceCloneDeps } from './voice-clone';
import { speechVisitor } from './speech-visitor';
import { timed } from '../../lib/server-timing';

const capabilitiesSchema = z.object({
  stt: z.object({
    available: z.boolean(),
    engine: z.enum(['openai', 'pocketsphinx']).nullable(),
    approximate: z.boolean(),
    howToConfigure: z.string().optional(),
  }),
  tts: z.object({ default: z.enum(['embedded', 'festival', 'browser']), openai: z.boolean(), elevenlabs: z.boolean() }),
  cloning: z.object({ available: z.boolean(), howToConfigure: z.string().optional() }),
  limits: z.object({ maxRecordingSeconds: z.number(), maxAudioBytes: z.number() }),
  openMic: z.object({ endOfTurnMs: z.number(), agents: z.boolean() }),
});
const usageSchema = z.object({ date: z.string(), charactersUsed: z.number(), dailyLimit: z.number() });
const rateLimitRowsSchema = z.object({
  rows: z.array(
    z.object({ endpoint: z.string(), requestCount: z.number(), windowStart: z.string(), userId: z.string().nullable(), ipAddress: z.string().nullable() }),
  ),
});
const speechBodySchema = z.object({ text: z.string().min(1, messages.voice.nothingToSpeak).max(SPEECH_TEXT_MAX * 2) }).strict();

const capabilities = createRoute({
  method: 'get',
  path: '/capabilities',
  tags: ['voice'],
  summary: 'What speech this server can do (recognition engine, voices, limits)',
  responses: { 200: jsonResponse(capabilitiesSchema, 'Capabilities') },
});
const usage = createRoute({
  method: 'get',
  path: '/voice-usage',
  tags: ['admin'],
  middleware: [adminOnly] as const,
  summary: "Today's ElevenLabs characters (UTC) against the daily limit",
  responses: { 200: jsonResponse(usageSchema, 'Usage'), ...errorResponses },
});
const rateLimits = createRoute({
  method: 'get',
  path: '/rate-limits',
  tags: ['admin'],
  middleware: [adminOnly] as const,
  summary: 'Rate-limit windows of the last 24 hours, newest first, at most 20',
  responses: { 200: jsonResponse(rateLimitRowsSchema, 'Rows'), ...errorResponses },
});

export function voiceRoutes(service: VoiceService) {
  return createRouter().openapi(capabilities, (c) => c.json(service.capabilities(), 200));
}

export function voiceMonitoringRoutes(service: VoiceService) {
  return createRouter()
    .openapi(usage, async (c) => c.json(await service.usage(), 200))
    .openapi(rateLimits, async (c) => c.json(await service.rateLimits(), 200));
}

/** The shared limiter answers RATE_LIMITED; voice routes answer with the spec's voice message. */
export function asVoiceLimit(limit: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      await limit(c, next);
    } catch (err) {
      if (err instanceof AppError && err.code === 'RATE_LIMITED' && err.details?.retryAfter !== undefined) {
        throw new AppError('VOICE_RATE_LIMITED', undefined, { details: err.details });
      }
      throw err;
    }
  };
}

/** Readies the grounded chat of one personality for this asker (the conversations module's warm). */
export type WarmChat = (viewer: Viewer | null, personalityId: string) => Promise<void>;

const transcriptSchema = z.object({
  text: z.string(),
  engine: z.string(),
  approximate: z.boolean().describe('An offline recognizer: the words may be wrong'),
  pronunciation: pronunciationReportSchema.optional(),
});
const voiceTags = ['voice'];
/** The personality voice routes read their own bodies (raw audio, multipart): declared for the API document. */
const describedVoiceRoutes = [
  createRoute({
    method: 'post',
    path: '/{id}/voice/warm',
    tags: voiceTags,
    summary: 'Ready speech-to-text and the grounded chat before an open-mic call (spends nothing)',
    request: personalityIdParam,
    responses: { 204: { description: 'Ready' }, ...errorResponses },
  }),
  createRoute({
    method: 'post',
    path: '/{id}/voice/clone',
    tags: voiceTags,
    summary: "Clone a voice from a sample (owner; ElevenLabs) and make it the personality's voice",
    request: {
      ...personalityIdParam,
      ...multipartBody(
        { sample: z.any().describe('Audio sample'), name: z.string().optional().describe('Defaults to the personality name'), description: z.string().optional(), consent: z.literal('true') },
        'The sample and the consent',
      ),
    },
    responses: { 201: jsonResponse(personalityResponseSchema, 'The personality with its new voice'), ...errorResponses },
  }),
  createRoute({
    method: 'post',
    path: '/{id}/voice/transcribe',
    tags: voiceTags,
    summary: 'Speech to text (body: the recording, WAV; at most 10 MB)',
    request: { ...personalityIdParam, body: { content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } }, required: true } },
    responses: { 200: jsonResponse(transcriptSchema, 'Transcript'), ...errorResponses },
  }),
  createRoute({
    method: 'post',
    path: '/{id}/voice/speech',
    tags: voiceTags,
    summary: "Text to speech in the personality's voice (headers: x-voice-provider, x-voice-id, x-voice-volume)",
    request: { ...personalityIdParam, ...jsonBody(speechBodySchema) },
    responses: { 200: rawResponse('audio/*', 'Audio'), ...errorResponses },
  }),
];

export function voicePersonalityRoutes(
  service: VoiceService,
  limits: { transcribe: MiddlewareHandler<AppEnv>; speech: MiddlewareHandler<AppEnv>; clone: MiddlewareHandler<AppEnv>; warm: MiddlewareHandler<AppEnv> },
  clone: VoiceCloneDeps,
  warmChat: WarmChat = async () => {},
) {
  const router = describeRoutes(createRouter(), describedVoiceRoutes);
  router.use('/:id/voice/transcribe', asVoiceLimit(limits.transcribe));
  router.use('/:id/voice/speech', asVoiceLimit(limits.speech));
  router.use('/:id/voice/clone', limits.clone);
  router.use('/:id/voice/warm', asVoiceLimit(limits.warm));
  return router
    // An open-mic call starting: the first turn's speech-to-text client and connection, and the
    // chat's persona, retrieval index and statements, are made ready while the person speaks
    // (the first turn was 300-600 ms slower than the next ones). Answers once ready; spends nothing.
    .post('/:id/voice/warm', async (c) => {
      const viewer = c.get('viewer') ?? null;
      const personality = await timed(c, 'access', () => service.visiblePersonality(c.req.param('id'), viewer?.id ?? null));
      await timed(c, 'warm', () => Promise.all([service.warm(), warmChat(viewer, personality.id).catch(() => undefined)]));
      return c.body(null, 204);
    })
    // multipart: sample (file), name, description, consent=true (owner).
    .post('/:id/voice/clone', (c) => handleVoiceClone(c, clone, c.req.param('id')))
    .post('/:id/voice/transcribe', async (c) => {
      // Who is asking is settled before a byte of the body is read.
      const personality = await timed(c, 'access', () => service.visiblePersonality(c.req.param('id'), c.get('viewer')?.id ?? null));
      const audio = await timed(c, 'body', () => readAudioBody(c.req.raw));
      const result = await timed(c, 'stt', () => service.transcribe(audio, c.req.raw.signal, personality));
      return c.json(result, 200);
    })
    .post('/:id/voice/speech', async (c) => {
      const personality = await timed(c, 'access', () => service.visiblePersonality(c.req.param('id'), c.get('viewer')?.id ?? null));
      const parsed = speechBodySchema.safeParse(await readJson(c));
      if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? messages.errors.invalidInput);
      const audio = await timed(c, 'tts', () => service.speech(personality, parsed.data.text, c.req.raw.signal, { visitor: speechVisitor(c) }));
      return new Response(cutOnFailure(audio.stream, c), {
        status: 200,
        headers: {
          'content-type': audio.mime,
          'cache-control': 'no-store',
          'x-voice-provider': audio.provider,
          'x-voice-id': audio.voice,
          'x-voice-volume': String(audio.volume),
        },
      });
    });
}

/**
 * The audio to the client as it arrives. When the provider's stream breaks off mid-way (the voice
 * service has logged it, redacted) the client's connection is cut, so its read fails as the
 * provider's did (the player falls back to the browser's voice for an OpenAI voice) and the status
 * already sent is not followed by what would look like a whole file. Erroring the response's
 * stream instead would make @hono/node-server print the error's stack, socket details and all, to
 * stderr, outside the logger; without the Node server (app.request in tests) it is errored.
 */
function cutOnFailure(source: ReadableStream<Uint8Array>, c: Context<AppEnv>): ReadableStream<Uint8Array> {
  const outgoing = (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
  return relayStream(source, (err, copy) => {
    // The pending read is then cancelled by the server (the connection closed): nothing is printed.
    if (outgoing && typeof outgoing.destroy === 'function') outgoing.destroy();
    else copy.error(err);
  });
}

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new AppError('BAD_REQUEST', messages.errors.badJson);
  }
}
