// Self-paced Chat's Start/Stop Recording with the keyboard: while the microphone starts and while
// a turn is processed the button only waits (aria-disabled, presses ignored), so focus stays on it;
// the status region announces the state (Recording, Processing, Ready), not the seconds counter.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PcmRecorder, Recording } from '../audio/pcm-recorder';
import { ada, fakeApi } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { SelfPacedChat } from './self-paced-chat';

const microphone: { opened: ((r: PcmRecorder) => void) | null; finish: ((r: Recording) => void) | null } = { opened: null, finish: null };

vi.mock('../audio/microphone-errors', () => ({
  microphoneSupported: () => true,
  microphoneErrorMessage: () => 'microphone error',
  browserHints: () => ({}),
}));
vi.mock('../audio/pcm-recorder', () => ({
  // The microphone opens when the test says so, and the recording finishes when the test says so.
  startPcmRecorder: () =>
    new Promise<PcmRecorder>((resolve) => {
      microphone.opened = resolve;
    }),
}));

afterEach(() => vi.unstubAllGlobals());

const capabilities = {
  stt: { available: true, engine: 'openai', approximate: false },
  tts: { default: 'embedded', openai: false, elevenlabs: false },
  cloning: { available: false },
  limits: { maxRecordingSeconds: 60, maxAudioBytes: 10 * 1024 * 1024 },
  openMic: { endOfTurnMs: 900, agents: false },
};

function setup() {
  let answerTranscription: (() => void) | null = null;
  fakeApi({
    user: ada,
    override: async (call) => {
      if (call.method === 'GET' && call.path === '/api/voice/capabilities') return { status: 200, body: capabilities };
      if (call.path.endsWith('/voice/transcribe')) {
        await new Promise<void>((resolve) => (answerTranscription = resolve));
        return { status: 200, body: { text: 'Hello there', engine: 'openai', approximate: false } };
      }
      return undefined;
    },
  });
  const send = vi.fn(async () => true);
  renderApp(<SelfPacedChat personality={{ id: 'p-1', name: 'Ada Lovelace' }} send={send} busy={false} onClearChat={() => {}} registerReplay={() => {}} />);
  return { send, transcribed: () => answerTranscription?.() };
}

/** What a screen reader gets from the status region: its text without the aria-hidden parts. */
function announced(element: Element) {
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"], [aria-hidden=""]').forEach((hidden) => hidden.remove());
  return copy.textContent?.trim();
}

const status = () => screen.getByRole('status', { name: 'Recording status' });

describe('Self-paced Chat recording button', () => {
  it('keeps focus while the microphone starts and while the turn is processed', async () => {
    const { send, transcribed } = setup();
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Start Recording' });
    await waitFor(() => expect(button).toBeEnabled());
    expect(status()).toHaveTextContent('Ready');

    button.focus();
    await user.keyboard('{Enter}');
    // The microphone is opening: the button waits, focused, and a second press does nothing.
    await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(button).toHaveFocus();
    expect(button).toBeEnabled();
    expect(button).toHaveAccessibleName('Start Recording');

    await act(async () => {
      microphone.opened!({
        stop: () => new Promise<Recording>((resolve) => (microphone.finish = resolve)),
        cancel: () => {},
      });
    });
    // The same button is now Stop Recording, still focused.
    expect(screen.getByRole('button', { name: 'Stop Recording' })).toBe(button);
    expect(button).not.toHaveAttribute('aria-disabled');
    expect(button).toHaveFocus();
    expect(announced(status())).toBe('Recording');

    await user.keyboard('{Enter}');
    await act(async () => microphone.finish!({ wav: new Uint8Array(64), seconds: 1 }));
    // Processing: Start Recording waits, focused; pressing it starts nothing.
    expect(await screen.findByRole('button', { name: 'Start Recording' })).toBe(button);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    expect(announced(status())).toBe('Processing...');
    microphone.opened = null;
    await user.keyboard('{Enter}');
    expect(microphone.opened).toBeNull();

    await act(async () => transcribed());
    await waitFor(() => expect(send).toHaveBeenCalledWith('Hello there', expect.anything()));
    await waitFor(() => expect(button).not.toHaveAttribute('aria-disabled'));
    expect(button).toHaveFocus();
    expect(status()).toHaveTextContent('Ready');
  });

  it('shows the seconds but announces only the state', async () => {
    setup();
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Start Recording' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await act(async () => microphone.opened!({ stop: () => new Promise<Recording>(() => {}), cancel: () => {} }));

    expect(status()).toHaveTextContent(/^Recording\.\.\. 0s \/ 60s$/);
    // A loaded machine may stall the page past a whole second: any count after 0 shows it moving.
    await waitFor(() => expect(status()).toHaveTextContent(/^Recording\.\.\. [1-9]\d*s \/ 60s$/), { timeout: 3000 });
    // The counter is there for the eye; what a screen reader is told has not changed.
    expect(announced(status())).toBe('Recording');
  });
});
