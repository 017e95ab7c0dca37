// Audio to transcribe: the browser's checks with the spec's words, the multipart upload with its
// title, the server's refusal shown as "Failed to upload audio: ...", the player and Retry on an
// audio document, and the toasts when its transcription finishes or fails.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { ada, type FakeCall } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { makeDocument, personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { FakeEventSource, FakeXhr } from '../test-support/fake-browser-io';
import { DocumentsTab } from './documents-tab';

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

const MB = 1024 * 1024;

function audioFile(name: string, size = 2048, type = 'audio/mpeg') {
  const f = new File([new Uint8Array(Math.min(size, 4096))], name, { type });
  if (size > 4096) Object.defineProperty(f, 'size', { value: size });
  return f;
}

const capabilities = (available: boolean, approximate = false) => ({
  stt: { available, engine: available ? (approximate ? 'pocketsphinx' : 'openai') : null, approximate },
  tts: { default: 'embedded', openai: false, elevenlabs: false },
  limits: { maxRecordingSeconds: 60, maxAudioBytes: 10 * MB },
});

function setup(options: { available?: boolean; documents?: ReturnType<typeof makeDocument>[] } = {}) {
  const api = stubDocumentsApi({
    user: ada,
    documents: options.documents,
    override: ({ method, path }: FakeCall) =>
      method === 'GET' && path === '/api/voice/capabilities' ? { status: 200, body: capabilities(options.available ?? true) } : undefined,
  });
  renderApp(<DocumentsTab personalityId={personalityId} />);
  const form = within(screen.getByRole('form', { name: 'Upload audio to transcribe' }));
  return { api, form, user: userEvent.setup({ applyAccept: false }) };
}

describe('upload audio to transcribe', () => {
  it('says what it takes, checks type and size in the browser with the spec messages', async () => {
    const { form, user } = setup();
    expect(form.getByText(messages.documents.audioHint)).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    expect(form.getByRole('alert')).toHaveTextContent(messages.documents.audioNoFile);
    await user.upload(form.getByLabelText('Audio file'), new File(['words'], 'notes.txt', { type: 'text/plain' }));
    expect(form.getByRole('alert')).toHaveTextContent('Please upload an audio file (MP3, WAV, or M4A)');
    await user.upload(form.getByLabelText('Audio file'), audioFile('speech.mp3', 21 * MB));
    expect(form.getByRole('alert')).toHaveTextContent('Audio file must be smaller than 20MB for transcription');
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    expect(FakeXhr.requests).toHaveLength(0);
  });

  it('ties its error to the file field as well as the hint, and focuses the field', async () => {
    const { form, user } = setup();
    const input = form.getByLabelText('Audio file');
    await waitFor(() => expect(input).toBeEnabled());
    expect(input).toHaveAccessibleDescription(messages.documents.audioHint);
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(`${messages.documents.audioNoFile} ${messages.documents.audioHint}`);
    expect(input).toHaveFocus();
  });

  it('sends the file and its title as multipart to the audio route, then says it is transcribing', async () => {
    const { api, form, user } = setup();
    FakeXhr.autoRespond = (file, request) => {
      const document = makeDocument({ fileName: String(request.body?.get('title') ?? file.name), mimeType: 'audio/mpeg', status: 'processing', progress: 1 });
      api.state.documents.unshift(document);
      return { status: 201, body: { document } };
    };
    await user.upload(form.getByLabelText('Audio file'), audioFile('speech.mp3'));
    await user.type(form.getByLabelText('Title (optional)'), 'Graduation speech');
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    expect(await screen.findByText('Transcribing Graduation speech…')).toBeInTheDocument();
    expect(FakeXhr.requests.map((r) => [r.method, r.url, r.file.name, r.body?.get('title')])).toEqual([
      ['POST', `/api/personalities/${personalityId}/documents/audio`, 'speech.mp3', 'Graduation speech'],
    ]);
    expect(form.getByLabelText('Title (optional)')).toHaveValue('');
    const row = within(await screen.findByRole('listitem', { name: 'Graduation speech' }));
    expect(row.getByLabelText('Play Graduation speech')).toHaveAttribute('src', expect.stringContaining(`/documents/${api.state.documents[0]!.id}/audio`));
  });

  it("shows the server's refusal as the spec's upload failure", async () => {
    const { form, user } = setup();
    FakeXhr.autoRespond = () => ({ status: 400, body: { error: { code: 'BAD_REQUEST', message: messages.documents.audioTruncated } } });
    await user.upload(form.getByLabelText('Audio file'), audioFile('cut.mp3'));
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    await waitFor(() => expect(form.getByRole('alert')).toHaveTextContent(`Failed to upload audio: ${messages.documents.audioTruncated}`));
    // Once on the page (a toast as well would make "find this message" ambiguous).
    await act(async () => {});
    expect(screen.getAllByText(`Failed to upload audio: ${messages.documents.audioTruncated}`)).toHaveLength(1);
  });

  it('without speech recognition the form says so and cannot be used', async () => {
    const { form } = setup({ available: false });
    expect(await form.findByText(messages.voice.sttUnavailable)).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Upload Audio' })).toBeDisabled();
  });
});

describe('an audio document', () => {
  it('announces a finished transcription, and a failed one with its reason; a failed one offers Retry', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    const speech = makeDocument({ fileName: 'Interview', mimeType: 'audio/mpeg', status: 'processing', progress: 40 });
    const other = makeDocument({ fileName: 'Lecture', mimeType: 'audio/wav', status: 'processing', progress: 10 });
    const { api } = setup({ documents: [speech, other] });
    await screen.findByRole('listitem', { name: 'Interview' });
    Object.assign(api.state.documents[0]!, { status: 'ready', progress: 100, chunkCount: 3 });
    Object.assign(api.state.documents[1]!, { status: 'failed', error: messages.voice.quotaExceeded });
    const stream = FakeEventSource.instances.at(-1)!;
    act(() => stream.emit('documents', { documents: api.state.documents }));
    expect(await screen.findByText(messages.documents.transcribed('Interview'))).toBeInTheDocument();
    expect(await screen.findByText(messages.documents.processingFailed)).toBeInTheDocument();
    expect(screen.getAllByText(messages.voice.quotaExceeded).length).toBeGreaterThan(0);
    const failed = within(screen.getByRole('listitem', { name: 'Lecture' }));
    expect(failed.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('announces the failure of a transcription that failed before the list was read again', async () => {
    const { api, form, user } = setup();
    FakeXhr.autoRespond = (file) => {
      const document = makeDocument({ fileName: file.name, mimeType: 'audio/mpeg', status: 'needs_processing', progress: 0 });
      // By the time the list is read again the job has already failed it.
      api.state.documents.unshift({ ...document, status: 'failed', error: messages.voice.quotaExceeded });
      return { status: 201, body: { document } };
    };
    await user.upload(form.getByLabelText('Audio file'), audioFile('quick.mp3'));
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    expect(await screen.findByText(messages.documents.processingFailed)).toBeInTheDocument();
    // The outcome took the upload's toast's place: nothing still says it is transcribing.
    // Well before the upload's toast would close by itself (4 s; the suite's wait is 5 s).
    await waitFor(() => expect(screen.queryByText('Transcribing quick.mp3…')).not.toBeInTheDocument(), { timeout: 1500 });
    const row = within(await screen.findByRole('listitem', { name: 'quick.mp3' }));
    expect(await row.findByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it("a finished transcription of an upload replaces its 'Transcribing' toast", async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    const { api, form, user } = setup();
    FakeXhr.autoRespond = (file) => {
      const document = makeDocument({ fileName: file.name, mimeType: 'audio/mpeg', status: 'processing', progress: 1 });
      api.state.documents.unshift(document);
      return { status: 201, body: { document } };
    };
    await user.upload(form.getByLabelText('Audio file'), audioFile('talk.mp3'));
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    expect(await screen.findByText('Transcribing talk.mp3…')).toBeInTheDocument();
    Object.assign(api.state.documents[0]!, { status: 'ready', progress: 100, chunkCount: 1 });
    act(() => FakeEventSource.instances.at(-1)!.emit('documents', { documents: api.state.documents }));
    expect(await screen.findByText(messages.documents.transcribed('talk.mp3'))).toBeInTheDocument();
    // Well before the upload's toast would close by itself (4 s; the suite's wait is 5 s).
    await waitFor(() => expect(screen.queryByText('Transcribing talk.mp3…')).not.toBeInTheDocument(), { timeout: 1500 });
  });

  it('announces a transcription that finished, seen only finished, before the upload was answered', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    const { api, form, user } = setup();
    await user.upload(form.getByLabelText('Audio file'), audioFile('fast.mp3'));
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1));
    // The live stream's first sight of it is already Ready; then the upload's answer arrives.
    const document = makeDocument({ fileName: 'fast.mp3', mimeType: 'audio/mpeg', status: 'ready', progress: 100, chunkCount: 1 });
    api.state.documents.unshift(document);
    act(() => FakeEventSource.instances.at(-1)!.emit('documents', { documents: api.state.documents }));
    await screen.findByRole('listitem', { name: 'fast.mp3' });
    act(() => FakeXhr.requests[0]!.answer({ status: 201, body: { document: { ...document, status: 'needs_processing', progress: 0, updatedAt: new Date(0).toISOString() } } }));
    expect(await screen.findByText(messages.documents.transcribed('fast.mp3'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Transcribing fast.mp3…')).not.toBeInTheDocument(), { timeout: 1500 });
  });

  it('an upload answered after its failure was announced says nothing more', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    const { api, form, user } = setup();
    await user.upload(form.getByLabelText('Audio file'), audioFile('late.mp3'));
    await user.click(form.getByRole('button', { name: 'Upload Audio' }));
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(1));
    // The live stream sees the job start and fail before the upload's own answer arrives.
    const document = makeDocument({ fileName: 'late.mp3', mimeType: 'audio/mpeg', status: 'processing', progress: 5 });
    api.state.documents.unshift(document);
    const stream = FakeEventSource.instances.at(-1)!;
    act(() => stream.emit('documents', { documents: api.state.documents }));
    await screen.findByRole('listitem', { name: 'late.mp3' });
    Object.assign(api.state.documents[0]!, { status: 'failed', error: messages.voice.quotaExceeded });
    act(() => stream.emit('documents', { documents: api.state.documents }));
    expect(await screen.findByText(messages.documents.processingFailed)).toBeInTheDocument();
    act(() => FakeXhr.requests[0]!.answer({ status: 201, body: { document: { ...document, status: 'needs_processing', progress: 0 } } }));
    await waitFor(() => expect(form.getByLabelText('Audio file')).toBeEnabled());
    expect(screen.queryByText('Transcribing late.mp3…')).not.toBeInTheDocument();
    expect(screen.getAllByText(messages.documents.processingFailed)).toHaveLength(1);
  });
});
