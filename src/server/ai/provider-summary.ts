// What the server will talk to, said once at start-up: an operator reading the log sees which
// model answers, where embeddings and moderation come from, and which voice services are on, with
// their hosts (never their keys). A setting that names a model but no way to reach it is said
// too, instead of silently running on the embedded model.
import type { AppConfig } from '../config';
import { EMBEDDINGS_OFF, resolveEmbeddingTarget } from './embeddings';
import { chatTarget, moderationBaseUrl, openaiSpeechBaseUrl, speechToTextTarget } from './providers';

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
  const { llm } = config;
  const chatModel = chatTarget(config);
  const chat = chatModel ? `model ${chatModel.model} at ${hostOf(chatModel.baseUrl)}` : 'offline responder';

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

  const moderation = config.moderation.model ? `${config.moderation.model} at ${hostOf(moderationBaseUrl(config))}` : 'the offline classifier (English only)';
  const sttService = speechToTextTarget(config);
  const stt = sttService ? `at ${hostOf(sttService.baseUrl)}` : config.voice.offlineStt === 'off' ? 'off' : 'offline (pocketsphinx, when installed)';
  const openaiSpeech = openaiSpeechBaseUrl(config);
  const voices = [
    openaiSpeech ? `OpenAI at ${hostOf(openaiSpeech)}` : undefined,
    config.elevenlabs.apiKey || config.elevenlabs.baseUrl ? `ElevenLabs${config.elevenlabs.baseUrl ? ` at ${hostOf(config.elevenlabs.baseUrl)}` : ''}` : undefined,
    config.voice.offlineTts === 'off' ? undefined : 'embedded',
  ].filter(Boolean);
  const pronunciation = config.azureSpeech.key && (config.azureSpeech.region || config.azureSpeech.endpoint) ? 'Azure Speech' : 'approximate (offline)';

  return {
    line: `providers: chat ${chat}; embeddings ${embeddings}; moderation ${moderation}; speech-to-text ${stt}; voices ${voices.length ? voices.join(', ') : 'the browser only'}; pronunciation ${pronunciation}`,
    warnings,
  };
}
