// What the server will talk to, said once at start-up: an operator reading the log sees which
// model answers, where embeddings and moderation come from, and which voice services are on, with
// their hosts (never their keys). A setting that names a model but no way to reach it is said
// too, instead of silently running on the embedded model.
import type { AppConfig } from '../config';
import { EMBEDDINGS_OFF, resolveEmbeddingTarget } from './embeddings';
import { DEFAULT_LLM_BASE_URL, DEFAULT_LLM_MODEL } from './providers';

/** The host of a base URL, enough to recognise it and never its credentials. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}

export interface ProviderSummary {
  line: string;
  warnings: string[];
}

export function summarizeProviders(config: Pick<AppConfig, 'llm' | 'openai' | 'elevenlabs' | 'moderation' | 'azureSpeech' | 'voice'>): ProviderSummary {
  const warnings: string[] = [];
  const { llm, openai } = config;
  const chat = llm.baseUrl || llm.apiKey ? `model ${llm.model ?? DEFAULT_LLM_MODEL} at ${hostOf(llm.baseUrl ?? DEFAULT_LLM_BASE_URL)}` : 'offline responder';

  let embeddings: string;
  if (llm.embeddingModel === EMBEDDINGS_OFF) embeddings = 'off (full-text search only)';
  else {
    const target = resolveEmbeddingTarget(config);
    if (target) embeddings = `${target.model} at ${hostOf(target.baseUrl)}`;
    else {
      embeddings = 'the embedded model';
      if (llm.embeddingModel) {
        warnings.push(`EMBEDDING_MODEL=${llm.embeddingModel} is set, but no LLM_BASE_URL, OPENAI_BASE_URL or API key says where to reach it: the embedded model is used instead`);
      }
    }
  }

  const moderationBase = openai.baseUrl ?? llm.baseUrl ?? DEFAULT_LLM_BASE_URL;
  const moderation = config.moderation.model ? `${config.moderation.model} at ${hostOf(moderationBase)}` : 'the offline classifier (English only)';
  const sttBase = config.voice.sttBaseUrl ?? openai.baseUrl ?? (openai.apiKey ? DEFAULT_LLM_BASE_URL : undefined);
  const stt = sttBase ? `at ${hostOf(sttBase)}` : config.voice.offlineStt === 'off' ? 'off' : 'offline (pocketsphinx, when installed)';
  const voices = [
    openai.baseUrl || openai.apiKey ? `OpenAI at ${hostOf(openai.baseUrl ?? DEFAULT_LLM_BASE_URL)}` : undefined,
    config.elevenlabs.apiKey || config.elevenlabs.baseUrl ? `ElevenLabs${config.elevenlabs.baseUrl ? ` at ${hostOf(config.elevenlabs.baseUrl)}` : ''}` : undefined,
    config.voice.offlineTts === 'off' ? undefined : 'embedded',
  ].filter(Boolean);
  const pronunciation = config.azureSpeech.key && (config.azureSpeech.region || config.azureSpeech.endpoint) ? 'Azure Speech' : 'approximate (offline)';

  return {
    line: `providers: chat ${chat}; embeddings ${embeddings}; moderation ${moderation}; speech-to-text ${stt}; voices ${voices.length ? voices.join(', ') : 'the browser only'}; pronunciation ${pronunciation}`,
    warnings,
  };
}
