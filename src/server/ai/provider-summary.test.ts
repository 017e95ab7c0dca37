// The start-up line that tells an operator what the server talks to, with hosts and never keys,
// and a model named with no way to reach it said aloud instead of silently replaced.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { summarizeProviders } from './provider-summary';
import { resolveEmbeddingTarget } from './embeddings';
import { createSpeechToText } from './providers';

describe('provider summary', () => {
  it('says the embedded defaults when nothing is configured', () => {
    const { line, warnings } = summarizeProviders(loadConfig({}));
    expect(line).toMatch(/^providers: chat offline responder; embeddings the embedded model; moderation the offline classifier \(English only\);/);
    expect(warnings).toEqual([]);
  });

  it('names models and hosts, never keys', () => {
    const config = loadConfig({
      LLM_BASE_URL: 'https://llm.example.com/v1',
      LLM_API_KEY: 'sk-live-secret-0123456789',
      LLM_MODEL: 'big-model',
      EMBEDDING_MODEL: 'embed-small',
      MODERATION_MODEL: 'omni-moderation-latest',
      OPENAI_BASE_URL: 'https://openai-proxy.example.com/v1',
      OPENAI_API_KEY: 'sk-other-secret-0123456789',
      ELEVENLABS_API_KEY: 'xi-secret',
    });
    const { line } = summarizeProviders(config);
    expect(line).toContain('chat model big-model at llm.example.com');
    expect(line).toContain('embeddings embed-small at llm.example.com');
    expect(line).toContain('moderation omni-moderation-latest at openai-proxy.example.com');
    expect(line).toContain('voices OpenAI at openai-proxy.example.com, ElevenLabs, embedded');
    expect(line).not.toMatch(/secret/);
  });

  it('says so when EMBEDDING_MODEL names a model nothing says where to reach', () => {
    const { line, warnings } = summarizeProviders(loadConfig({ EMBEDDING_MODEL: 'text-embedding-3-small' }));
    expect(line).toContain('embeddings the embedded model');
    expect(warnings).toEqual([expect.stringMatching(/^EMBEDDING_MODEL=text-embedding-3-small is set, but no LLM_BASE_URL, OPENAI_BASE_URL or API key/)]);
  });

  it('reaches OpenAI itself for embeddings with a model key alone, as chat does', () => {
    const target = resolveEmbeddingTarget(loadConfig({ EMBEDDING_MODEL: 'text-embedding-3-small', LLM_API_KEY: 'sk-x' }));
    expect(target).toEqual({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-x', model: 'text-embedding-3-small' });
  });

  it('names the speech-to-text service the server really uses: STT_API_KEY alone is OpenAI', () => {
    const { line } = summarizeProviders(loadConfig({ STT_API_KEY: 'sk-stt' }));
    expect(line).toContain('speech-to-text at api.openai.com');
    expect(createSpeechToText(loadConfig({ STT_API_KEY: 'sk-stt' }))).toBeDefined();
  });
});

