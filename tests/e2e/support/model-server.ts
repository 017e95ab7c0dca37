// A second Kindred server for the browser flows that need a language model: the built app on its
// own free port and fresh data folder, with LLM_BASE_URL pointing at the loopback fake model
// (tests/fakes/openai-chat-fake.ts), which the flow controls (slow streaming, failures) and reads
// (which requests were aborted). The main e2e server keeps the embedded offline responder.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { startFakeChat, type FakeChat } from '../../fakes/openai-chat-fake';
import { freePort } from '../../../src/server/lib/free-port';

export interface ModelServer {
  url: string;
  fake: FakeChat;
  close(): Promise<void>;
}


async function waitForHealth(url: string, child: ChildProcess, stderr: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the model server exited (${child.exitCode}): ${stderr()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the model server did not become healthy in ${timeoutMs} ms: ${stderr()}`);
}

export interface KindredProcess {
  url: string;
  close(): Promise<void>;
}

/** The built app on a free port and a fresh data folder, with `env` on top of the defaults. */
export async function startKindred(env: Record<string, string>): Promise<KindredProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-e2e-model-'));
  let err = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    // Playwright runs from the repository root (where playwright.config.ts is).
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      ADMIN_EMAILS: '',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_AUTH_PER_15MIN: '100000',
      RATE_LIMIT_PERSONALITIES_PER_HOUR: '100000',
      RATE_LIMIT_SHARES_PER_HOUR: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d) => (err = (err + String(d)).slice(-4000)));
  let stopping = false;
  // A server that dies under a test leaves only "ECONNREFUSED" in the next one: say why it died.
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`the app at ${url} exited (code ${code}, signal ${signal}); its last output:\n${err}`);
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, () => err, 120_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, close: stop };
}

export async function startModelServer(): Promise<ModelServer> {
  const fake = await startFakeChat({ mode: 'reply' });
  let app: KindredProcess;
  try {
    app = await startKindred({ LLM_BASE_URL: fake.url, LLM_API_KEY: 'fake-key', LLM_MODEL: 'fake-model' });
  } catch (e) {
    await fake.close();
    throw e;
  }
  return {
    url: app.url,
    fake,
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

/** Signs up and in on the model server (better-auth wants that server's own Origin). */
export async function signUpOn(request: APIRequestContext, server: ModelServer, email: string, password: string) {
  const headers = { origin: server.url };
  const up = await request.post(`${server.url}/api/auth/sign-up/email`, { data: { email, password, name: '' }, headers });
  expect(up.status(), await up.text()).toBe(200);
  const inn = await request.post(`${server.url}/api/auth/sign-in/email`, { data: { email, password }, headers });
  expect(inn.status(), await inn.text()).toBe(200);
  const me = (await (await request.get(`${server.url}/api/me`)).json()) as { user: { id: string } };
  return me.user.id;
}

/**
 * A Kindred whose model, OpenAI speech and ElevenLabs are the loopback fakes, with the chat and
 * voice rate limits out of the way (flows and benchmarks send many turns quickly).
 */
export function voiceProviderEnv(openaiUrl: string, elevenlabsUrl: string): Record<string, string> {
  return {
    LLM_BASE_URL: openaiUrl,
    LLM_API_KEY: 'fake-key',
    LLM_MODEL: 'fake-model',
    OPENAI_BASE_URL: openaiUrl,
    OPENAI_API_KEY: 'fake-openai-key',
    ELEVENLABS_BASE_URL: elevenlabsUrl,
    ELEVENLABS_API_KEY: 'fake-eleven-key',
    RATE_LIMIT_CHAT_PER_MINUTE: '100000',
    RATE_LIMIT_VOICE_PER_MINUTE: '100000',
    RATE_LIMIT_SPEECH_PER_MINUTE: '100000',
  };
}
