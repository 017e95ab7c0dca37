// An agent call that cannot open the microphone says the spec's Microphone messages (denied, with
// the Brave and phone instructions; not found; in use), not the browser's own words.
import { describe, expect, it } from 'vitest';
import { messages } from '../../../../shared/messages';
import { agentStartError } from './agent-call';

const desktop = { brave: false, mobile: false };
const domError = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('agentStartError', () => {
  it.each([
    ['NotAllowedError', 'Permission denied', desktop, messages.voice.micDenied],
    ['NotAllowedError', 'Permission denied', { brave: true, mobile: false }, messages.voice.micDeniedBrave],
    ['NotAllowedError', 'Permission denied', { brave: false, mobile: true }, messages.voice.micDeniedMobile],
    ['NotFoundError', 'Requested device not found', desktop, messages.voice.micNotFound],
    ['NotReadableError', 'Could not start audio source', desktop, messages.voice.micInUse],
    ['OverconstrainedError', 'Constraints could not be satisfied', desktop, messages.voice.micConstraints],
  ])('%s (%s) is the spec message', (name, browserWords, hints, shown) => {
    expect(agentStartError(domError(name, browserWords), hints)).toBe(shown);
  });

  it('keeps the voice session messages for the connection itself', () => {
    expect(agentStartError({ closeCode: 1006 }, desktop)).toBe(messages.openMic.agentInvalid);
    expect(agentStartError(new TypeError('Failed to fetch'), desktop)).toBe(messages.openMic.networkError);
  });
});
