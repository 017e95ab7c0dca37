// The recording widget with the browser's microphone, MediaRecorder and decoder replaced by
// stand-ins: the states and timer, the spec's "No Recording", "Title Required" and microphone
// messages, the preview, discard, and the upload of a 16 kHz mono WAV with its title.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { ada, type FakeCall } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { makeDocument, personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { FakeXhr } from '../test-support/fake-browser-io';
import { DocumentsTab } from './documents-tab';

class FakeMediaRecorder {
  static last: FakeMediaRecorder | null = null;
  static isTypeSupported = (t: string) => t === 'audio/webm;codecs=opus';
  state: 'inactive' | 'recording' = 'inactive';
  mimeType: string;
  timeslice = 0;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(
    readonly stream: unknown,
    options?: { mimeType?: string },
  ) {
    this.mimeType = options?.mimeType ?? '';
    FakeMediaRecorder.last = this;
  }
  start(timeslice: number) {
    this.timeslice = timeslice;
    this.state = 'recording';
    this.ondataavailable?.({ data: new Blob([new Uint8Array(200)], { type: this.mimeType }) });
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob([new Uint8Array(100)], { type: this.mimeType }) });
    queueMicrotask(() => this.onstop?.());
  }
}

/** Decodes anything as 0.5 s of a 48 kHz stereo tone. */
class FakeAudioContext {
  async decodeAudioData() {
    const length = 24_000;
    const channel = Float32Array.from({ length }, (_, i) => Math.sin(i / 10) * 0.5);
    return { numberOfChannels: 2, sampleRate: 48_000, length, getChannelData: () => channel };
  }
  async close() {}
}

const trackStops = vi.fn();
let getUserMedia: ReturnType<typeof vi.fn>;

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
  vi.stubGlobal('AudioContext', FakeAudioContext);
  getUserMedia = vi.fn(async () => ({ getTracks: () => [{ stop: trackStops }] }));
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
  trackStops.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup() {
  const api = stubDocumentsApi({
    user: ada,
    override: ({ method, path }: FakeCall) =>
      method === 'GET' && path === '/api/voice/capabilities'
        ? { status: 200, body: { stt: { available: true, engine: 'openai', approximate: false }, tts: { default: 'embedded', openai: false, elevenlabs: false }, limits: { maxRecordingSeconds: 60, maxAudioBytes: 1 } } }
        : undefined,
  });
  renderApp(<DocumentsTab personalityId={personalityId} />);
  const widget = within(screen.getByRole('region', { name: 'Record audio' }));
  return { api, widget, user: userEvent.setup() };
}

describe('recording widget', () => {
  it('"No Recording" before anything was recorded', async () => {
    const { widget, user } = setup();
    expect(widget.getByRole('status', { name: 'Recording state' })).toHaveTextContent('Not recording');
    await user.click(widget.getByRole('button', { name: 'Upload Recording' }));
    expect(await screen.findByText(messages.documents.noRecording)).toBeInTheDocument();
    expect(FakeXhr.requests).toHaveLength(0);
  });

  it('records 44.1 kHz mono WebM/Opus in 100 ms chunks, previews it, asks for a title, uploads a 16 kHz mono WAV', async () => {
    const { api, widget, user } = setup();
    await user.click(widget.getByRole('button', { name: 'Start Recording' }));
    expect(await widget.findByRole('button', { name: 'Stop Recording' })).toBeInTheDocument();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: expect.objectContaining({ channelCount: 1, sampleRate: 44_100 }) });
    expect(FakeMediaRecorder.last).toMatchObject({ mimeType: 'audio/webm;codecs=opus', timeslice: 100 });
    await waitFor(() => expect(widget.getByRole('status', { name: 'Recording state' })).toHaveTextContent(/Recording 0:0\d/));

    await user.click(widget.getByRole('button', { name: 'Stop Recording' }));
    expect(await widget.findByRole('button', { name: 'Play recording' })).toBeInTheDocument();
    expect(trackStops).toHaveBeenCalled();
    expect(widget.getByRole('status', { name: 'Recording state' })).toHaveTextContent(/Recorded 0:0\d/);

    await user.click(widget.getByRole('button', { name: 'Upload Recording' }));
    expect(await screen.findByText(messages.documents.titleRequired)).toBeInTheDocument();
    expect(FakeXhr.requests).toHaveLength(0);

    FakeXhr.autoRespond = (_file, request) => {
      const document = makeDocument({ fileName: String(request.body?.get('title')), mimeType: 'audio/wav', status: 'processing' });
      api.state.documents.unshift(document);
      return { status: 201, body: { document } };
    };
    await user.type(widget.getByLabelText('Recording title'), 'How we met');
    await user.click(widget.getByRole('button', { name: 'Upload Recording' }));
    expect(await screen.findByText('Transcribing How we met…')).toBeInTheDocument();
    const sent = FakeXhr.requests[0]!;
    expect(sent.url).toBe(`/api/personalities/${personalityId}/documents/audio`);
    expect(sent.body?.get('title')).toBe('How we met');
    const wav = new DataView(await sent.file.arrayBuffer());
    expect(String.fromCharCode(wav.getUint8(0), wav.getUint8(1), wav.getUint8(2), wav.getUint8(3))).toBe('RIFF');
    expect(wav.getUint16(22, true)).toBe(1); // mono
    expect(wav.getUint32(24, true)).toBe(16_000);
    expect(wav.byteLength - 44).toBe(8_000 * 2); // 0.5 s at 16 kHz, 16-bit
    // Back to the start, ready for the next one.
    await waitFor(() => expect(widget.getByRole('status', { name: 'Recording state' })).toHaveTextContent('Not recording'));
    expect(widget.getByLabelText('Recording title')).toHaveValue('');
  });

  it('Discard drops the recording', async () => {
    const { widget, user } = setup();
    await user.click(widget.getByRole('button', { name: 'Start Recording' }));
    await user.click(await widget.findByRole('button', { name: 'Stop Recording' }));
    await user.click(await widget.findByRole('button', { name: 'Discard' }));
    expect(widget.queryByRole('button', { name: 'Play recording' })).not.toBeInTheDocument();
    await user.click(widget.getByRole('button', { name: 'Upload Recording' }));
    expect(await screen.findByText(messages.documents.noRecording)).toBeInTheDocument();
  });

  it('a refused microphone says the spec message', async () => {
    getUserMedia.mockRejectedValueOnce(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    const { widget, user } = setup();
    await user.click(widget.getByRole('button', { name: 'Start Recording' }));
    expect(await widget.findByRole('alert')).toHaveTextContent(messages.documents.recordingError);
    await act(async () => {});
    expect(screen.getAllByText(messages.documents.recordingError)).toHaveLength(1);
    expect(widget.getByRole('button', { name: 'Start Recording' })).toBeEnabled();
  });

  it('keeps focus on Start/Stop Recording while the microphone starts and after Stop (aria-disabled, not disabled)', async () => {
    let open!: () => void;
    getUserMedia.mockImplementationOnce(() => new Promise((resolve) => (open = () => resolve({ getTracks: () => [{ stop: trackStops }] }))));
    const { widget, user } = setup();
    const button = widget.getByRole('button', { name: 'Start Recording' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(widget.getByRole('status', { name: 'Recording state' })).toHaveTextContent('Starting…');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toBeEnabled();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}'); // ignored while it waits
    expect(getUserMedia).toHaveBeenCalledTimes(1);

    await act(async () => open());
    expect(await widget.findByRole('button', { name: 'Stop Recording' })).toBe(button);
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await widget.findByRole('button', { name: 'Play recording' })).toBeInTheDocument();
    // A recording waits to be uploaded or discarded: Start Recording waits too, and keeps focus.
    expect(widget.getByRole('button', { name: 'Start Recording' })).toBe(button);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
  });

  it('shows the running clock but announces only "Recording"', async () => {
    const { widget, user } = setup();
    await user.click(widget.getByRole('button', { name: 'Start Recording' }));
    await widget.findByRole('button', { name: 'Stop Recording' });
    const state = widget.getByRole('status', { name: 'Recording state' });
    await waitFor(() => expect(state).toHaveTextContent(/^Recording 0:0\d$/));
    const spoken = state.cloneNode(true) as Element;
    spoken.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
    expect(spoken.textContent?.trim()).toBe('Recording');
  });

  it('times the recording on the monotonic clock: wall-clock jumps neither skew the clock nor stop it', async () => {
    const { widget, user } = setup();
    const realDateNow = Date.now.bind(Date);
    const realPerformanceNow = performance.now.bind(performance);
    const nextTicks = () => act(() => new Promise((resolve) => setTimeout(resolve, 600)));
    await user.click(widget.getByRole('button', { name: 'Start Recording' }));
    await widget.findByRole('button', { name: 'Stop Recording' });
    const state = widget.getByRole('status', { name: 'Recording state' });

    // The wall clock steps back 11 minutes (NTP, a manual change): no negative clock.
    const wallClock = vi.spyOn(Date, 'now').mockImplementation(() => realDateNow() - 11 * 60_000);
    await nextTicks();
    expect(state).toHaveTextContent(/^Recording 0:0\d$/);

    // ...then forward 11 minutes (sleep/resume): not taken for the 10-minute limit.
    wallClock.mockImplementation(() => realDateNow() + 11 * 60_000);
    await nextTicks();
    expect(state).toHaveTextContent(/^Recording 0:0\d$/);
    expect(widget.getByRole('button', { name: 'Stop Recording' })).toBeInTheDocument();
    expect(screen.queryByText(messages.documents.recordingLimit(10))).toBeNull();
    wallClock.mockRestore();

    // Ten minutes of recording as the monotonic clock counts them do stop it, at the limit.
    vi.spyOn(performance, 'now').mockImplementation(() => realPerformanceNow() + 10 * 60_000);
    expect(await screen.findByText(messages.documents.recordingLimit(10))).toBeInTheDocument();
    expect(await widget.findByRole('button', { name: 'Play recording' })).toBeInTheDocument();
  });

  it('"Title Required" marks the title invalid, ties the message to it and focuses it', async () => {
    const { widget, user } = setup();
    await user.click(widget.getByRole('button', { name: 'Start Recording' }));
    await user.click(await widget.findByRole('button', { name: 'Stop Recording' }));
    await widget.findByRole('button', { name: 'Play recording' });
    const title = widget.getByLabelText('Recording title');
    expect(title).not.toHaveAttribute('aria-invalid');
    await user.click(widget.getByRole('button', { name: 'Upload Recording' }));
    expect(await widget.findByRole('alert')).toHaveTextContent(messages.documents.titleRequiredHint);
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveAccessibleDescription(messages.documents.titleRequiredHint);
    expect(title).toHaveFocus();
    expect(await screen.findByText(messages.documents.titleRequired)).toBeInTheDocument();
    expect(screen.getAllByText(messages.documents.titleRequiredHint)).toHaveLength(1);
  });

  it('"Title Required" for a title of invisible characters only, as for a blank one', async () => {
    const { widget, user } = setup();
    await user.click(widget.getByRole('button', { name: 'Start Recording' }));
    await user.click(await widget.findByRole('button', { name: 'Stop Recording' }));
    await widget.findByRole('button', { name: 'Play recording' });
    const title = widget.getByLabelText('Recording title');
    await user.type(title, '\u200B\u200D \u0301');
    await user.click(widget.getByRole('button', { name: 'Upload Recording' }));
    expect(await widget.findByRole('alert')).toHaveTextContent(messages.documents.titleRequiredHint);
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText(messages.documents.titleRequired)).toBeInTheDocument();
    expect(FakeXhr.requests).toHaveLength(0);
  });
});
