// Self-paced Chat's transcription and speech calls tell the app what a 401 or a 404 means, as every
// other call does (lib/api-client.ts watchAnswer): signed out elsewhere, or the personality deleted
// or unshared, so the conversation gives way to the signed-out or "not available" view instead of
// only failing that recording.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onSessionEnded } from '../../../lib/auth-sync';
import { onPersonalityMissing } from '../../../lib/personality-missing';
import { ApiError } from '../../../lib/api-client';
import { synthesize, transcribe } from './voice-api';

afterEach(() => vi.unstubAllGlobals());

function answer(status: number) {
  vi.stubGlobal('fetch', async () =>
    new Response(JSON.stringify({ error: { code: 'X', message: `answered ${status}` } }), { status, headers: { 'content-type': 'application/json' } }),
  );
}

function watch() {
  const seen = { sessionEnded: 0, personalityMissing: 0 };
  const stops = [onSessionEnded(() => seen.sessionEnded++), onPersonalityMissing(() => seen.personalityMissing++)];
  return { seen, stop: () => stops.forEach((s) => s()) };
}

const calls = {
  transcribe: () => transcribe('p-1', new Uint8Array(64)),
  synthesize: () => synthesize('p-1', 'Hello there.'),
};

describe.each(Object.entries(calls))('%s', (_name, call) => {
  it('reports a 401 as the session ended, and still fails with the server message', async () => {
    const { seen, stop } = watch();
    answer(401);
    await expect(call()).rejects.toEqual(expect.objectContaining({ status: 401, message: 'answered 401' }));
    stop();
    expect(seen).toEqual({ sessionEnded: 1, personalityMissing: 0 });
  });

  it('reports a 404 as the personality gone', async () => {
    const { seen, stop } = watch();
    answer(404);
    await expect(call()).rejects.toBeInstanceOf(ApiError);
    stop();
    expect(seen).toEqual({ sessionEnded: 0, personalityMissing: 1 });
  });

  it('reports nothing for other refusals (a rate limit, a provider failure)', async () => {
    const { seen, stop } = watch();
    for (const status of [429, 502, 403]) {
      answer(status);
      await expect(call()).rejects.toBeInstanceOf(ApiError);
    }
    stop();
    expect(seen).toEqual({ sessionEnded: 0, personalityMissing: 0 });
  });
});
