// The documents list polls every 2 s while the live stream is not connected. Once the list answers
// 401 (signed out, maybe in another tab), 403 or 404 (the personality gone), asking again cannot
// help: the polling stops instead of repeating the refused request forever.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { apiError, makeDocument, personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { FakeEventSource } from '../test-support/fake-browser-io';
import { DocumentsTab } from '../components/documents-tab';

afterEach(() => vi.unstubAllGlobals());

const listPath = `/api/personalities/${personalityId}/documents`;
const pollPeriods = (n: number) => new Promise((r) => setTimeout(r, n * 2000 + 600));

function signedOutAfterFirstList(status: 401 | 403 | 404) {
  let signedOut = false;
  const api = stubDocumentsApi({
    user: ada,
    documents: [makeDocument({ fileName: 'notes.txt' })],
    override: (call) =>
      signedOut && call.path.startsWith(listPath) ? apiError(status, 'UNAUTHORIZED', 'Authentication required') : undefined,
  });
  return { api, signOut: () => (signedOut = true) };
}

describe('documents polling after the session ended', () => {
  it.each([
    [401, 'signed out, no event stream available'],
    [404, 'the personality was deleted or unshared meanwhile'],
  ] as const)('stops polling once the list answers %i (%s)', async (status, _why) => {
    const { api, signOut: refuseFromNowOn } = signedOutAfterFirstList(status);
    renderApp(<DocumentsTab personalityId={personalityId} />);
    expect(await screen.findByText('notes.txt')).toBeInTheDocument();
    refuseFromNowOn();

    await pollPeriods(1);
    const afterFirstRefusal = api.callsTo('GET', listPath).length;
    expect(afterFirstRefusal).toBeGreaterThanOrEqual(2);
    await pollPeriods(2);
    expect(api.callsTo('GET', listPath)).toHaveLength(afterFirstRefusal);
  }, 15_000);

  it('stops the fallback polling when the stream fails and the list answers 403', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    const { api, signOut } = signedOutAfterFirstList(403);
    renderApp(<DocumentsTab personalityId={personalityId} />);
    expect(await screen.findByText('notes.txt')).toBeInTheDocument();
    const stream = FakeEventSource.instances[0]!;
    act(() => stream.open());
    signOut();
    // A browser does not retry an event stream refused with an HTTP error: polling takes over.
    act(() => stream.fail());

    await pollPeriods(1);
    const afterFirstRefusal = api.callsTo('GET', listPath).length;
    expect(afterFirstRefusal).toBeGreaterThanOrEqual(2);
    await pollPeriods(2);
    expect(api.callsTo('GET', listPath)).toHaveLength(afterFirstRefusal);
  }, 15_000);
});
