// The calls that cannot go through the typed client (uploads by XMLHttpRequest, raw multipart
// posts) still tell the app what their answer means: a 401 that the session ended (the account
// sync re-reads who is signed in), a 404 for a personality that it is gone (the library re-reads).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onSessionEnded } from './auth-sync';
import { onPersonalityMissing } from './personality-missing';
import { uploadDocument } from '../features/documents/api/upload-document';
import { uploadAudio } from '../features/documents/api/upload-audio';
import { importCard } from '../features/personalities/api/import-card';
import { FakeXhr } from '../features/documents/test-support/fake-browser-io';

const refusal = (status: number) => ({ status, body: { error: { code: status === 401 ? 'UNAUTHORIZED' : 'NOT_FOUND', message: 'refused' } } });

let sessionEnded: ReturnType<typeof vi.fn<() => void>>;
let personalityMissing: ReturnType<typeof vi.fn<() => void>>;
const unsubscribe: (() => unknown)[] = [];
beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  sessionEnded = vi.fn<() => void>();
  personalityMissing = vi.fn<() => void>();
  unsubscribe.push(onSessionEnded(sessionEnded), onPersonalityMissing(personalityMissing));
});
afterEach(() => {
  for (const off of unsubscribe.splice(0)) off();
  vi.unstubAllGlobals();
});

describe('answers to uploads and raw posts', () => {
  it('a document upload answered 401 reports the session ended', async () => {
    FakeXhr.autoRespond = () => refusal(401);
    await expect(uploadDocument({ personalityId: 'p-1', file: new File(['x'], 'a.txt') })).rejects.toThrow();
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });

  it('an audio upload answered 404 reports the personality missing', async () => {
    FakeXhr.autoRespond = () => refusal(404);
    await expect(uploadAudio({ personalityId: 'p-1', file: new File(['x'], 'a.mp3'), title: '' })).rejects.toThrow();
    expect(personalityMissing).toHaveBeenCalledTimes(1);
    expect(sessionEnded).not.toHaveBeenCalled();
  });

  it('a character card import answered 401 reports the session ended', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(refusal(401).body), { status: 401 })));
    await expect(importCard(new File(['{}'], 'card.json'))).rejects.toThrow();
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });
});
