// The embedding client: any OpenAI-compatible POST {base}/embeddings (OpenAI, Ollama, vLLM,
// llama.cpp, LM Studio). Configured by EMBEDDING_MODEL plus LLM_BASE_URL (with LLM_API_KEY), or
// OPENAI_BASE_URL / OPENAI_API_KEY. Without one, the embedded model is used (providers.ts);
// EMBEDDING_MODEL=none turns vectors off (full-text retrieval only).
import { providerErrorText } from './provider-error-text';
import type { AppConfig } from '../config';

export interface EmbeddingClient {
  model: string;
  /** One vector per input, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** EMBEDDING_MODEL=none: no vectors at all, not even the embedded model. */
export const EMBEDDINGS_OFF = 'none';

export class EmbeddingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

export interface EmbeddingTarget {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

/** Where embeddings go, or undefined when none is configured. */
export function resolveEmbeddingTarget(config: Pick<AppConfig, 'llm' | 'openai'>): EmbeddingTarget | undefined {
  const model = config.llm.embeddingModel;
  if (!model || model === EMBEDDINGS_OFF) return undefined;
  if (config.llm.baseUrl) return { baseUrl: config.llm.baseUrl, apiKey: config.llm.apiKey, model };
  if (config.openai.baseUrl) return { baseUrl: config.openai.baseUrl, apiKey: config.openai.apiKey, model };
  if (config.openai.apiKey) return { baseUrl: 'https://api.openai.com/v1', apiKey: config.openai.apiKey, model };
  // A model key alone means OpenAI itself, as it does for chat.
  if (config.llm.apiKey) return { baseUrl: 'https://api.openai.com/v1', apiKey: config.llm.apiKey, model };
  return undefined;
}

const REQUEST_TIMEOUT_MS = 60_000;

/** OpenAI refuses a request of more inputs than this (a document's batch of chunks with their sentences can hold ~3,000). */
export const MAX_INPUTS_PER_REQUEST = 2048;
/**
 * Characters per request. OpenAI refuses more than 300,000 tokens in one request; at up to three
 * tokens a character (Chinese, Japanese), 100,000 characters stay under it. A single longer input
 * still goes alone.
 */
export const MAX_CHARACTERS_PER_REQUEST = 100_000;

/** `texts` cut into runs that each fit one request, in order. */
export function requestGroups(texts: string[]): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let characters = 0;
  for (const text of texts) {
    if (group.length > 0 && (group.length === MAX_INPUTS_PER_REQUEST || characters + text.length > MAX_CHARACTERS_PER_REQUEST)) {
      groups.push(group);
      group = [];
      characters = 0;
    }
    group.push(text);
    characters += text.length;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

export function createEmbeddingClient(target: EmbeddingTarget, fetchImpl: typeof fetch = fetch): EmbeddingClient {
  const url = `${target.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return {
    model: target.model,
    async embed(texts, signal) {
      // One request after another, within the provider's limits per request; every vector of the
      // batch must have one length, across requests too.
      const out: number[][] = [];
      for (const group of requestGroups(texts)) out.push(...(await embedOneRequest(group, signal)));
      if (out.some((v) => v.length !== out[0]!.length)) throw new EmbeddingError('the embedding service sent an unexpected answer');
      return out;
    },
  };

  async function embedOneRequest(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: target.model, input: texts, encoding_format: 'float' }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new EmbeddingError(timeout.aborted ? 'the embedding service did not answer in time' : 'the embedding service could not be reached');
    }
    if (!res.ok) {
      // The provider's own words help the owner fix the setting; the key is never echoed.
      const detail = await res.text().catch(() => '');
      const message = providerErrorText(detail);
      throw new EmbeddingError(`the embedding service answered ${res.status}${message ? `: ${message}` : ''}`);
    }
    const body = (await res.json().catch(() => null)) as { data?: { index?: number; embedding?: unknown }[] } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== texts.length) throw new EmbeddingError('the embedding service sent an unexpected answer');
    const out: number[][] = new Array(texts.length);
    data.forEach((item, i) => {
      const v = item.embedding;
      if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingError('the embedding service sent an unexpected answer');
      }
      out[typeof item.index === 'number' ? item.index : i] = v as number[];
    });
    // Every input answered (vectors of one length are checked over the whole batch, in embed).
    if (out.some((v) => !v)) throw new EmbeddingError('the embedding service sent an unexpected answer');
    return out;
  }
}


