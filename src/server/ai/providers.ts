// The only place that chooses a provider (design.md). Chat replies: the offline responder by
// default; any OpenAI-compatible chat-completions server when LLM_BASE_URL / LLM_API_KEY are set
// (OpenAI, Ollama, vLLM, llama.cpp, LM Studio). Chat completions, not /v1/responses, which local
// servers lack. Embeddings: EMBEDDING_MODEL on the LLM or OpenAI base URL (embeddings.ts), else
// the embedded model (ai/embedded: runs offline in a worker thread); EMBEDDING_MODEL=none: none.
import { createChatCompletions } from './chat-completions';
import type { AppConfig } from '../config';
import { createEmbeddingClient, EMBEDDINGS_OFF, resolveEmbeddingTarget, type EmbeddingClient } from './embeddings';
import { sharedEmbeddedEmbeddings } from './embedded/embedded-embeddings';
import { composeOfflineReply, wordChunks, type OfflinePassage } from './offline/offline-responder';
import type { Moderator } from './moderation/moderation-types';
import { createOfflineModerator } from './moderation/offline-classifier';
import { createOpenAIModerator } from './moderation/openai-moderation';
import type { SpeechSynthesizer, SpeechToText } from './speech/speech-types';
import { createOpenAISpeechToText } from './speech/openai-speech-to-text';
import { createPocketsphinxSpeechToText, findPocketsphinx, recogniseWords } from './speech/pocketsphinx-speech-to-text';
import { createOpenAITextToSpeech } from './speech/openai-text-to-speech';
import { createElevenLabsTextToSpeech } from './speech/elevenlabs-text-to-speech';
import { createElevenLabsVoiceCloning, type VoiceCloning } from './speech/elevenlabs-voice-cloning';
import { createElevenLabsAgents, type VoiceAgents } from './speech/elevenlabs-agents';
import { createAzurePronunciation } from './speech/azure-pronunciation';
import type { PronunciationReport } from '../../shared/schemas/pronunciation';
import { composeCoachFeedback } from './offline/coach-feedback';
import { alignApproximate, referenceWords, type ScoredWord } from './speech/pronunciation-report';
import { toMono16k } from './speech/audio-file';
import { createFliteTextToSpeech, fliteWasmPath } from './speech/flite-text-to-speech';
import { createFestivalTextToSpeech, festivalAvailable } from './speech/festival-text-to-speech';

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ReplyRequest {
  /** Exactly what a model receives: the system prompt first, then history and the question. */
  messages: ChatTurn[];
  personalityName: string;
  question: string;
  /** The retrieved passages (the offline responder answers from these). */
  passages: OfflinePassage[];
  /** Phonetic mode: the spoken message's report (the offline responder coaches from it). */
  pronunciation?: PronunciationReport;
  signal: AbortSignal;
}

export interface ChatResponder {
  readonly mode: 'offline' | 'model';
  /** Shown to people and admins: "Offline responder" or the model id. */
  readonly label: string;
  /** Yields the reply in pieces as it is produced; throws when the provider fails. */
  streamReply(request: ReplyRequest): AsyncIterable<string>;
}

export const DEFAULT_LLM_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_LLM_MODEL = 'gpt-4o-mini';

// Where each provider is reached, decided once here: the factories below and the start-up summary
// (provider-summary.ts) both ask these, so the log never names a service the server does not use.

/** The chat model's address and id, or undefined: the offline responder answers. */
export function chatTarget(config: Pick<AppConfig, 'llm'>): { baseUrl: string; apiKey?: string; model: string } | undefined {
  const { baseUrl, apiKey, model } = config.llm;
  if (!baseUrl && !apiKey) return undefined;
  return { baseUrl: baseUrl ?? DEFAULT_LLM_BASE_URL, apiKey, model: model ?? DEFAULT_LLM_MODEL };
}

/** A configured moderation model's base URL (OPENAI_BASE_URL, else LLM_BASE_URL, else OpenAI). */
export function moderationBaseUrl(config: Pick<AppConfig, 'openai' | 'llm'>): string {
  return config.openai.baseUrl ?? config.llm.baseUrl ?? DEFAULT_LLM_BASE_URL;
}

/** The speech-to-text service (STT_BASE_URL, else OPENAI_BASE_URL; a key alone: OpenAI), or undefined. */
export function speechToTextTarget(config: Pick<AppConfig, 'openai' | 'voice'>): { baseUrl: string; apiKey?: string } | undefined {
  const baseUrl = config.voice.sttBaseUrl ?? config.openai.baseUrl;
  const apiKey = config.voice.sttApiKey ?? config.openai.apiKey;
  return baseUrl || apiKey ? { baseUrl: baseUrl ?? DEFAULT_LLM_BASE_URL, apiKey } : undefined;
}

/** OpenAI-compatible speech (TTS) at OPENAI_BASE_URL, or OpenAI itself with a key alone; undefined: none. */
export function openaiSpeechBaseUrl(config: Pick<AppConfig, 'openai'>): string | undefined {
  const { baseUrl, apiKey } = config.openai;
  return baseUrl || apiKey ? (baseUrl ?? DEFAULT_LLM_BASE_URL) : undefined;
}

export function createChatResponder(config: AppConfig): ChatResponder {
  const target = chatTarget(config);
  if (!target) return offlineResponder;
  return modelResponder({ ...target, idleTimeoutMs: config.llm.idleTimeoutMs, maxTokens: config.llm.maxTokens });
}

/**
 * The embedding model: the configured EMBEDDING_MODEL's service, else the embedded model (one per
 * process, shared by every app in it); undefined when EMBEDDING_MODEL=none.
 */
export function createEmbeddings(config: Pick<AppConfig, 'llm' | 'openai'>): EmbeddingClient | undefined {
  if (config.llm.embeddingModel === EMBEDDINGS_OFF) return undefined;
  const target = resolveEmbeddingTarget(config);
  return target ? createEmbeddingClient(target) : sharedEmbeddedEmbeddings();
}

/**
 * Moderation: an OpenAI-compatible /moderations model when MODERATION_MODEL is set (on
 * OPENAI_BASE_URL, else LLM_BASE_URL), else the embedded offline classifier.
 */
export function createModerator(config: Pick<AppConfig, 'moderation' | 'openai' | 'llm'>): Moderator {
  const { model, threshold } = config.moderation;
  if (model) return createOpenAIModerator({ baseUrl: moderationBaseUrl(config), apiKey: config.openai.apiKey ?? config.llm.apiKey, model, threshold });
  return createOfflineModerator({ threshold });
}

/**
 * Speech-to-text: an OpenAI-compatible /audio/transcriptions (STT_BASE_URL, else OPENAI_BASE_URL;
 * or OpenAI itself with just OPENAI_API_KEY), else pocketsphinx when installed, else none.
 */
export function createSpeechToText(config: Pick<AppConfig, 'openai' | 'voice'>): SpeechToText | undefined {
  const target = speechToTextTarget(config);
  if (target) return createOpenAISpeechToText({ ...target, model: config.voice.sttModel });
  if (config.voice.offlineStt === 'off') return undefined;
  const cli = findPocketsphinx();
  return cli ? createPocketsphinxSpeechToText(cli) : undefined;
}

export interface PronunciationAssessor {
  readonly engine: 'azure' | 'pocketsphinx';
  readonly approximate: boolean;
  /** Word scores for a 16 kHz mono WAV against the text the person meant to say. */
  assess(wav: Uint8Array, referenceText: string, signal?: AbortSignal): Promise<ScoredWord[]>;
}

/** Azure Speech when configured; else the approximate offline assessment when pocketsphinx is installed. */
export function createPronunciationAssessor(config: Pick<AppConfig, 'azureSpeech' | 'voice'>): PronunciationAssessor | undefined {
  const { key, region, endpoint } = config.azureSpeech;
  if (key && (region || endpoint)) return createAzurePronunciation({ key, region, endpoint });
  if (config.voice.offlineStt === 'off') return undefined;
  const cli = findPocketsphinx();
  if (!cli) return undefined;
  return {
    engine: 'pocketsphinx',
    approximate: true,
    async assess(wav, referenceText, signal) {
      const mono = toMono16k(wav) ?? wav;
      return alignApproximate(referenceWords(referenceText), await recogniseWords(cli, mono, signal));
    },
  };
}

/** ElevenLabs conversational agents (open mic): a signed URL needs a real API key. */
export function createVoiceAgents(config: Pick<AppConfig, 'elevenlabs'>): VoiceAgents | undefined {
  const { apiKey, baseUrl } = config.elevenlabs;
  return apiKey ? createElevenLabsAgents({ apiKey, baseUrl }) : undefined;
}

/** ElevenLabs instant voice cloning: needs a real API key (a base URL alone is not enough). */
export function createVoiceCloning(config: Pick<AppConfig, 'elevenlabs'>): VoiceCloning | undefined {
  const { apiKey, baseUrl } = config.elevenlabs;
  return apiKey ? createElevenLabsVoiceCloning({ apiKey, baseUrl }) : undefined;
}

export interface SpeechSynthesizers {
  /** The personality's "default" voice: festival when installed, else flite; undefined: the browser speaks. */
  default?: SpeechSynthesizer;
  openai?: SpeechSynthesizer;
  elevenlabs?: SpeechSynthesizer;
}

export function createSpeechSynthesizers(config: Pick<AppConfig, 'openai' | 'elevenlabs' | 'voice'>): SpeechSynthesizers {
  const mode = config.voice.offlineTts;
  const useFestival = (mode === 'auto' || mode === 'festival') && festivalAvailable();
  const useFlite = !useFestival && (mode === 'auto' || mode === 'flite') && fliteWasmPath() !== undefined;
  const openaiBase = openaiSpeechBaseUrl(config);
  return {
    default: useFestival ? createFestivalTextToSpeech() : useFlite ? createFliteTextToSpeech() : undefined,
    openai: openaiBase ? createOpenAITextToSpeech({ baseUrl: openaiBase, apiKey: config.openai.apiKey, model: config.voice.ttsModel }) : undefined,
    elevenlabs:
      config.elevenlabs.apiKey || config.elevenlabs.baseUrl
        ? createElevenLabsTextToSpeech({ baseUrl: config.elevenlabs.baseUrl, apiKey: config.elevenlabs.apiKey, model: config.voice.elevenlabsModel })
        : undefined,
  };
}

export const offlineResponder: ChatResponder = {
  mode: 'offline',
  label: 'Offline responder',
  async *streamReply(request) {
    const answer = composeOfflineReply({
      personalityName: request.personalityName,
      question: request.question,
      passages: request.passages,
    });
    const reply = request.pronunciation?.available ? `${composeCoachFeedback(request.pronunciation)}\n\n${answer}` : answer;
    for (const word of wordChunks(reply)) {
      if (request.signal.aborted) return;
      yield word;
      // Let a disconnect be noticed between words.
      await new Promise((resolve) => setImmediate(resolve));
    }
  },
};

export function modelResponder(options: { baseUrl: string; apiKey?: string; model: string; idleTimeoutMs?: number; maxTokens?: number }): ChatResponder {
  const completions = createChatCompletions(options);
  return {
    mode: 'model',
    label: options.model,
    // The wire request's messages are exactly request.messages, the system prompt first.
    streamReply: (request) => completions.stream(request.messages, request.signal),
  };
}
