// Voice rules (no Hono): who may use voice with a personality, which voice speaks it, what a
// recording must be, how provider failures reach the client, ElevenLabs' daily credits, and each
// visitor's daily character budget for the paid voices.
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { ELEVENLABS_PRESETS, OPENAI_VOICES } from '../../../shared/limits';
import { stripDoNotRead } from '../../../shared/do-not-read';
import { voiceVolumeMultiplier } from '../../../shared/voice-volume';
import { loadVisiblePersonality } from '../personalities/personality-access';
import type { PersonalityRow } from '../personalities/personalities.repository';
import type { PronunciationAssessor, SpeechSynthesizers } from '../../ai/providers';
import { buildReport, unavailableReport } from '../../ai/speech/pronunciation-report';
import type { PronunciationReport } from '../../../shared/schemas/pronunciation';
import { isPhoneticMode } from '../../../shared/voice-rules';
import { SpeechProviderError, type SpeechToText, type SynthesizedAudio, type SynthProvider } from '../../ai/speech/speech-types';
import { redactSecrets } from '../../ai/provider-error-text';
import { relayStream } from '../../lib/stream-relay';
import { checkWav } from './wav-check';
import { headAtWord, headOf } from '../../../shared/text/cut';
import { audibleOrNothing, embeddedVoiceCanSpeak } from './embedded-voice';
import {
  addVisitorCharacters,
  creditsUsedOn,
  giveBackVisitorCharacters,
  recentRateLimits,
  releaseCredits,
  reserveCredits,
  utcDay,
  visitorDayHit,
} from './voice.repository';

export const AUDIO_MAX_BYTES = 10 * 1024 * 1024;
export const SPEECH_TEXT_MAX = 5000;
/** OpenAI's speech endpoint refuses an input longer than this (its documented limit). */
export const OPENAI_SPEECH_INPUT_MAX = 4096;

export interface VoiceDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  stt?: SpeechToText;
  synthesizers: SpeechSynthesizers;
  dailyCreditLimit: number;
  /** Paid-voice (OpenAI, ElevenLabs) characters per visitor per UTC day; 0: no budget. */
  dailyCharactersPerVisitor: number;
  maxRecordingSeconds: number;
  /** Open mic: the pause that ends a turn, and whether ElevenLabs agents can be used. */
  endOfTurnMs?: number;
  agents?: boolean;
  /** ElevenLabs instant voice cloning is configured (an API key). */
  cloning?: boolean;
  /** Pronunciation assessment for phonetic mode (Azure, or the approximate offline one). */
  pronunciation?: PronunciationAssessor;
}

export interface Capabilities {
  stt: { available: boolean; engine: 'openai' | 'pocketsphinx' | null; approximate: boolean; howToConfigure?: string };
  tts: { default: 'embedded' | 'festival' | 'browser'; openai: boolean; elevenlabs: boolean };
  cloning: { available: boolean; howToConfigure?: string };
  limits: { maxRecordingSeconds: number; maxAudioBytes: number };
  openMic: { endOfTurnMs: number; agents: boolean };
}

export interface SpeechResult extends SynthesizedAudio {
  provider: SynthProvider;
  voice: string;
  volume: number;
}

/** Who asks for speech (speech-visitor.ts): the subject their paid-voice budget is counted by. */
export interface Visitor {
  /** `user:{id}` when signed in, else `ip:{address key}` (as the rate limits count). */
  subject: string;
  userId: string | null;
  ipAddress: string | null;
}

/** Characters taken from a visitor's budget, to give back when the provider refuses them. */
interface Taken {
  giveBack(): Promise<void>;
}

/** The voice a personality speaks with, from its stored provider and settings. */
export function voiceOf(p: Pick<PersonalityRow, 'voiceProvider' | 'voiceSettings' | 'customVoiceId'>): { provider: 'default' | 'openai' | 'elevenlabs'; voice: string } {
  const s = p.voiceSettings ?? {};
  if (p.voiceProvider === 'openai') {
    const v = s.openai_voice ?? s.voice_id;
    return { provider: 'openai', voice: OPENAI_VOICES.some((o) => o.value === v) ? v! : 'alloy' };
  }
  if (p.voiceProvider === 'elevenlabs') {
    const preset = ELEVENLABS_PRESETS.find((x) => x.value === s.type || x.voiceId === s.voice_id);
    const custom = s.voice_type === 'custom' ? (s.voice_id ?? p.customVoiceId) : undefined;
    return { provider: 'elevenlabs', voice: custom ?? preset?.voiceId ?? ELEVENLABS_PRESETS[0].voiceId };
  }
  return { provider: 'default', voice: 'flite' };
}

export function createVoiceService(deps: VoiceDeps) {
  const { db, clock, logger, stt, synthesizers } = deps;
  const perVisitor = deps.dailyCharactersPerVisitor;

  /**
   * Takes `characters` from the visitor's paid-voice budget for today (UTC), atomically in the
   * database (every process shares it): each request adds its characters and reads the day's total,
   * and one that goes past the budget takes them back out, so concurrent requests together never
   * spend more than the budget. Undefined when they do not fit (logged, without the text).
   */
  async function takeFromBudget(visitor: Visitor, characters: number, provider: 'openai' | 'elevenlabs'): Promise<Taken | undefined> {
    if (perVisitor <= 0) return { giveBack: async () => {} };
    const hit = visitorDayHit(visitor, characters, clock.now());
    const giveBack = () => giveBackVisitorCharacters(db, hit).catch((e) => logger.error("could not give back a visitor's paid-voice characters", e));
    if (characters <= perVisitor) {
      if ((await addVisitorCharacters(db, hit)) <= perVisitor) return { giveBack };
      await giveBack();
    }
    logger.info(`${provider} speech refused: ${visitor.subject} has no room for ${characters} more characters in today's ${perVisitor} per visitor`);
    return undefined;
  }

  async function assessPronunciation(audio: Uint8Array, intended: string, heard: string, signal?: AbortSignal): Promise<PronunciationReport> {
    const assessor = deps.pronunciation;
    if (!assessor) return unavailableReport(intended, heard, messages.voice.pronunciationUnavailable);
    try {
      const words = await assessor.assess(audio, intended, signal);
      return buildReport({ engine: assessor.engine, approximate: assessor.approximate, referenceText: intended, heardText: heard, words });
    } catch (err) {
      // The chat goes on without a report. The report is shown in the chat log to whoever sees the
      // personality (anonymous visitors too): it says so plainly; the provider's words (redacted)
      // are for the log only.
      // Cancelled with the request (the person withdrew the turn, or left): nothing failed.
      if (!signal?.aborted) logger.warn(`pronunciation assessment failed: ${describe(err)}`);
      return unavailableReport(intended, heard, messages.voice.pronunciationServiceDown);
    }
  }

  return {
    capabilities(): Capabilities {
      const d = synthesizers.default;
      return {
        stt: stt
          ? { available: true, engine: stt.engine, approximate: stt.approximate }
          : { available: false, engine: null, approximate: false, howToConfigure: messages.voice.sttUnavailable },
        tts: { default: d ? (d.provider === 'festival' ? 'festival' : 'embedded') : 'browser', openai: Boolean(synthesizers.openai), elevenlabs: Boolean(synthesizers.elevenlabs) },
        cloning: deps.cloning ? { available: true } : { available: false, howToConfigure: messages.voice.cloneNotConfigured },
        limits: { maxRecordingSeconds: deps.maxRecordingSeconds, maxAudioBytes: AUDIO_MAX_BYTES },
        openMic: { endOfTurnMs: deps.endOfTurnMs ?? 900, agents: Boolean(deps.agents) },
      };
    },

    /** Readies speech-to-text for a call's first turn (its client, a connection); never throws. */
    warm: async (): Promise<void> => {
      await stt?.warm?.().catch(() => undefined);
    },

    /** Settled before a byte of the body is read: 404 for whoever may not see the personality. */
    visiblePersonality: (id: string, viewerId: string | null) => loadVisiblePersonality(db, id, viewerId),

    /**
     * The words of a recording. In phonetic mode (the personality coaches pronunciation) the text is
     * what was heard, verbatim, and the report scores each word of what was meant (the corrected
     * transcript) with Azure or, approximately, the offline recognizer.
     */
    async transcribe(
      audio: Uint8Array,
      signal?: AbortSignal,
      personality?: Pick<PersonalityRow, 'name' | 'voiceSettings'>,
    ): Promise<{ text: string; engine: string; approximate: boolean; pronunciation?: PronunciationReport }> {
      const wav = checkWav(audio);
      if (!wav.ok) throw new AppError('BAD_AUDIO', wav.message, { details: { reason: wav.reason } });
      if (wav.seconds > deps.maxRecordingSeconds + 5) {
        throw new AppError('BAD_AUDIO', `The recording is longer than ${deps.maxRecordingSeconds} seconds.`, { details: { reason: 'too-long' } });
      }
      if (isSilent(audio, wav.dataOffset, wav.dataBytes)) throw new AppError('NO_SPEECH');
      if (!stt) throw new AppError('STT_UNAVAILABLE');
      let text: string;
      try {
        text = await stt.transcribe(audio, signal);
      } catch (err) {
        throw speechToTextError(err, signal);
      }
      if (!text.trim()) throw new AppError('NO_SPEECH');
      const intended = text.trim();
      if (!personality || !isPhoneticMode(personality)) return { text: intended, engine: stt.engine, approximate: stt.approximate };
      let heard = intended;
      if (stt.engine === 'openai') {
        try {
          heard = (await stt.transcribe(audio, signal, { verbatim: true })).trim() || intended;
        } catch (err) {
          throw speechToTextError(err, signal);
        }
      }
      return { text: heard, engine: stt.engine, approximate: stt.approximate, pronunciation: await assessPronunciation(audio, intended, heard, signal) };
    },

    /**
     * `fastDecode`: ask for the format the browser decodes soonest where the provider allows (open
     * mic's turn). A synthesis cancelled through `signal` (barge-in, the listener gone) throws as a
     * failure would, but is not logged as one: nothing went wrong with the provider.
     */
    async speech(personality: PersonalityRow, rawText: string, signal: AbortSignal | undefined, options: { fastDecode?: boolean; visitor: Visitor; onCounted?: () => void }): Promise<SpeechResult> {
      const text = headOf(stripDoNotRead(rawText), SPEECH_TEXT_MAX);
      if (!/[\p{L}\p{N}]/u.test(text)) throw new AppError('BAD_REQUEST', messages.voice.nothingToSpeak);
      const chosen = voiceOf(personality);
      // A cancelled synthesis is no provider failure: only real ones are logged.
      const warnFailed = (what: string) => {
        if (!signal?.aborted) logger.warn(what);
      };
      // The audio as it arrives; a provider stream that breaks off mid-way is logged here, once.
      const watched = (audio: SynthesizedAudio, provider: SynthProvider): SynthesizedAudio => ({
        ...audio,
        stream: relayStream(audio.stream, (err, copy) => {
          warnFailed(`${provider} speech broke off mid-stream: ${describeCut(err)}`);
          copy.error(err);
        }),
      });
      // The paid voices' characters are the ones sent (after [DO_NOT_READ] and the length cut). A
      // synthesis cancelled on our side keeps them counted: the provider may have them already.
      // A provider the server has no settings for speaks with the default voice instead.
      if (chosen.provider === 'openai' && synthesizers.openai) {
        // A longer reply is spoken up to OpenAI's limit, at a sentence's or word's end, rather than
        // not at all (the whole of it was refused, and the browser's voice spoke instead).
        const said = headAtWord(text, OPENAI_SPEECH_INPUT_MAX);
        const taken = await takeFromBudget(options.visitor, said.length, 'openai');
        // The visitor's budget spent: the browser's voice speaks, as when OpenAI fails.
        if (!taken) throw new AppError('TTS_FALLBACK', undefined, { details: { kind: 'visitor_budget' } });
        options.onCounted?.();
        try {
          const audio = await synthesizers.openai.synthesize(said, chosen.voice, signal, options.fastDecode ? { format: 'wav' } : undefined);
          return { ...watched(audio, 'openai'), provider: 'openai', voice: chosen.voice, volume: voiceVolumeMultiplier('openai', chosen.voice) };
        } catch (err) {
          if (!signal?.aborted) await taken.giveBack();
          warnFailed(`openai speech failed, the browser speaks instead: ${describe(err)}`);
          // The provider's words stay in the log: this answer reaches anonymous visitors too.
          throw new AppError('TTS_FALLBACK', undefined, { details: { kind: failureKind(err) } });
        }
      }
      if (chosen.provider === 'elevenlabs' && synthesizers.elevenlabs) {
        const day = utcDay(clock.now());
        const characters = text.length;
        // The visitor's budget first: one past it spends none of everyone's daily credits.
        const taken = await takeFromBudget(options.visitor, characters, 'elevenlabs');
        if (!taken) throw new AppError('VOICE_CREDITS_EXHAUSTED', undefined, { details: { dailyLimit: perVisitor, perVisitor: true } });
        const total = await reserveCredits(db, day, characters, deps.dailyCreditLimit);
        if (total === undefined) {
          await taken.giveBack();
          throw new AppError('VOICE_CREDITS_EXHAUSTED', undefined, { details: { dailyLimit: deps.dailyCreditLimit } });
        }
        options.onCounted?.();
        try {
          const audio = await synthesizers.elevenlabs.synthesize(text, chosen.voice, signal);
          return { ...watched(audio, 'elevenlabs'), provider: 'elevenlabs', voice: chosen.voice, volume: voiceVolumeMultiplier('elevenlabs', chosen.voice) };
        } catch (err) {
          if (!signal?.aborted) await taken.giveBack();
          await releaseCredits(db, day, characters).catch((e) => logger.error('could not release ElevenLabs credits', e));
          warnFailed(`elevenlabs speech failed: ${describe(err)}`);
          throw elevenLabsSpeechError(err);
        }
      }
      const d = synthesizers.default;
      // The embedded voice costs nothing to count.
      options.onCounted?.();
      // Text in another script: the embedded voice would be silent, the browser's may know it.
      if (!d || !embeddedVoiceCanSpeak(text)) throw new AppError('TTS_BROWSER');
      let audio: SynthesizedAudio | undefined;
      try {
        audio = await audibleOrNothing(await d.synthesize(text, 'flite', signal));
      } catch (err) {
        warnFailed(`embedded speech failed, the browser speaks instead: ${describe(err)}`);
        throw new AppError('TTS_BROWSER');
      }
      // Nothing it could say (a header-only WAV): silence would be played instead of the words.
      if (!audio) throw new AppError('TTS_BROWSER');
      const voice = d.provider === 'festival' ? 'slt' : 'flite';
      return { ...watched(audio, d.provider), provider: d.provider, voice, volume: voiceVolumeMultiplier(d.provider, voice) };
    },

    async usage() {
      const day = utcDay(clock.now());
      return { date: day, charactersUsed: await creditsUsedOn(db, day), dailyLimit: deps.dailyCreditLimit };
    },

    async rateLimits() {
      const since = new Date(clock.now().getTime() - 24 * 60 * 60 * 1000);
      const rows = await recentRateLimits(db, since, 20);
      return {
        rows: rows.map((r) => ({
          endpoint: r.endpoint,
          requestCount: r.requestCount,
          windowStart: r.windowStart.toISOString(),
          userId: r.userId ? r.userId.slice(0, 8) : null,
          ipAddress: r.ipAddress,
        })),
      };
    },
  };
}

export type VoiceService = ReturnType<typeof createVoiceService>;

/** A failure for the log: one line, shortened, keys and tokens replaced (provider errors already are). */
function describe(err: unknown): string {
  return redactSecrets((err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ')).slice(0, 300);
}

/** A stream that broke off: undici says "terminated", its cause why ("other side closed"); no socket details. */
function describeCut(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return describe(`${err instanceof Error ? err.message : String(err)}${cause}`);
}

const failureKind = (err: unknown) => (err instanceof SpeechProviderError ? err.kind : 'failed');

/**
 * ElevenLabs failing (spec: an error, no fallback voice), each kind with what the person can do:
 * too many requests (wait), the account's credits spent (only the administrator can help), or a
 * failure worth trying again.
 */
function elevenLabsSpeechError(err: unknown): AppError {
  const kind = failureKind(err);
  const details = { provider: 'elevenlabs', kind };
  if (kind === 'rate_limit') return new AppError('VOICE_RATE_LIMITED', undefined, { details });
  if (kind === 'quota') return new AppError('VOICE_QUOTA', messages.voice.elevenLabsCreditsExhausted, { details });
  return new AppError('TTS_ERROR', undefined, { details });
}

/**
 * Spec section 8: rate limit, quota, anything else "Speech-to-text error: {message}". A
 * transcription cancelled through the request's `signal` (open mic withdrew the turn, the person
 * left) is none of these: nobody is waiting for the answer, and the service did nothing wrong, so it
 * is neither a 5xx nor logged as a failure.
 */
function speechToTextError(err: unknown, signal?: AbortSignal): AppError {
  if (signal?.aborted) return new AppError('BAD_REQUEST', 'The request was cancelled.', { details: { reason: 'cancelled' } });
  if (err instanceof SpeechProviderError) {
    if (err.kind === 'rate_limit') return new AppError('VOICE_RATE_LIMITED', undefined, { cause: err });
    if (err.kind === 'quota') return new AppError('VOICE_QUOTA', undefined, { cause: err });
    return new AppError('STT_ERROR', messages.voice.sttError(err.message), { cause: err });
  }
  return new AppError('STT_ERROR', messages.voice.sttError('the service failed'), { cause: err });
}

/** No sample louder than about -50 dBFS: nothing was said (no provider call is spent on it). */
function isSilent(bytes: Uint8Array, offset: number, length: number): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, length - (length % 2));
  for (let i = 0; i + 1 < view.byteLength; i += 2) {
    if (Math.abs(view.getInt16(i, true)) > 100) return false;
  }
  return true;
}
