// Settings as an operator writes them: an empty value means the default (as docs/configuration.md
// says), an address the server would trip over later is refused at start-up naming its variable,
// and a refused setting is one line on stderr with exit code 1, not a stack trace.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('configuration', () => {
  it('treats an empty value as unset: the default, not zero or an empty string', () => {
    const config = loadConfig({ HOST: '', PORT: '', JOB_CONCURRENCY: ' ', MODERATION_THRESHOLD: '', STORAGE_QUOTA_MB: '', DATA_DIR: '', LLM_BASE_URL: '' });
    const defaults = loadConfig({});
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(3000);
    expect(config.jobs.concurrency).toBe(1);
    expect(config.moderation.threshold).toBe(defaults.moderation.threshold);
    expect(config.documents.storageQuotaBytes).toBe(1024 * 1024 * 1024);
    expect(config.dataDir).toBe(defaults.dataDir);
    expect(config.llm.baseUrl).toBeUndefined();
  });

  it("takes provider addresses written either way: ElevenLabs' with or without /v1, Azure's as a host or a full recognition URL", () => {
    for (const written of ['https://api.elevenlabs.io', 'https://api.elevenlabs.io/', 'https://api.elevenlabs.io/v1', 'https://api.elevenlabs.io/v1/']) {
      // The SDK adds /v1/... itself: a base ending in /v1 would send every call to /v1/v1/...
      expect(loadConfig({ ELEVENLABS_BASE_URL: written }).elevenlabs.baseUrl).toBe('https://api.elevenlabs.io');
    }
    for (const written of [
      'https://westeurope.stt.speech.microsoft.com',
      'https://westeurope.stt.speech.microsoft.com/',
      'https://westeurope.stt.speech.microsoft.com/speech/recognition/conversation/cognitiveservices/v1',
      'https://westeurope.stt.speech.microsoft.com/speech/recognition/conversation/cognitiveservices/v1?language=en-US',
    ]) {
      expect(loadConfig({ AZURE_SPEECH_ENDPOINT: written }).azureSpeech.endpoint).toBe('https://westeurope.stt.speech.microsoft.com');
    }
    expect(loadConfig({}).elevenlabs.baseUrl).toBeUndefined();
    expect(loadConfig({}).azureSpeech.endpoint).toBeUndefined();
  });

  it.each([
    ['LLM_BASE_URL', '127.0.0.1:8080/v1'],
    ['PUBLIC_URL', 'localhost:3000'],
    ['OPENAI_BASE_URL', 'ftp://example.com/v1'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://u:p@db/kindred'],
    ['SMTP_URL', 'mail.example.com:25'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: must be a full address starting with`));
  });

  it('accepts the addresses it documents', () => {
    const config = loadConfig({
      LLM_BASE_URL: 'https://api.example.com/v1',
      PUBLIC_URL: 'https://kindred.example.com',
      DATABASE_URL: 'postgresql://kindred:secret@db:5432/kindred',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
    });
    expect(config.llm.baseUrl).toBe('https://api.example.com/v1');
    expect(config.databaseUrl).toBe('postgresql://kindred:secret@db:5432/kindred');
  });

  it('stops the server with one line naming the setting, and exit code 1', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: 'abc', LLM_BASE_URL: '127.0.0.1:8080/v1' };
    delete env.DATABASE_URL;
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: repoRoot, env, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, output: `${stdout}${stderr}` });
      });
    });
    expect(result.code).toBe(1);
    expect(result.output.trim().split('\n')).toHaveLength(1);
    expect(result.output).toMatch(/^Invalid configuration: PORT: .*LLM_BASE_URL: must be a full address/);
  }, 70_000);
});
