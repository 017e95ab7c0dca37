// Uploading: the quick checks (type, 10MB) with the spec's words, one progress bar per file, the
// server's per-file errors, and the toast when nothing was uploaded.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { makeDocument, personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { FakeXhr, uploadAnswer } from '../test-support/fake-browser-io';
import { DocumentsTab } from './documents-tab';

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

const MB = 1024 * 1024;

function file(name: string, size = 20, type = 'text/plain') {
  const f = new File(['x'.repeat(Math.min(size, 4096))], name, { type });
  // A real 10MB body is not needed to test the size check, only a file that says it is that big.
  if (size > 4096) Object.defineProperty(f, 'size', { value: size });
  return f;
}

function setup() {
  const api = stubDocumentsApi({ user: ada });
  renderApp(<DocumentsTab personalityId={personalityId} />);
  return { api, user: userEvent.setup({ applyAccept: false }) };
}

const input = () => screen.getByLabelText('Upload documents');
const uploads = () => screen.findByRole('list', { name: 'Uploads' });

describe('document upload', () => {
  it('accepts several files by browse, sends each as multipart "files", and lists them when done', async () => {
    const { api, user } = setup();
    expect(input()).toHaveAttribute('multiple');
    expect(input().getAttribute('accept')).toContain('.pdf');
    FakeXhr.autoRespond = (f) => {
      const document = makeDocument({ fileName: f.name, status: 'processing', progress: 0 });
      api.state.documents.unshift(document);
      return uploadAnswer({ fileName: f.name, ok: true, document });
    };
    await user.upload(input(), [file('a.txt'), file('b.pdf', 30, 'application/pdf')]);

    expect(await screen.findByText('2 documents uploaded')).toBeInTheDocument();
    expect(FakeXhr.requests.map((r) => [r.method, r.url, r.file.name])).toEqual([
      ['POST', `/api/personalities/${personalityId}/documents`, 'a.txt'],
      ['POST', `/api/personalities/${personalityId}/documents`, 'b.pdf'],
    ]);
    const list = await screen.findByRole('list', { name: 'Uploaded documents' });
    expect(await within(list).findByText('a.txt')).toBeInTheDocument();
    expect(within(list).getByText('b.pdf')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
  });

  it('shows each file its own progress bar while it uploads', async () => {
    const { user } = setup();
    await user.upload(input(), [file('one.txt', 1000), file('two.md', 1000)]);
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(2));
    act(() => FakeXhr.requests[0]!.progress(0.4));
    act(() => FakeXhr.requests[1]!.progress(0.75));
    expect(screen.getByRole('progressbar', { name: 'Uploading one.txt' })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByRole('progressbar', { name: 'Uploading two.md' })).toHaveAttribute('aria-valuenow', '75');
    expect(within(await uploads()).getByText('40%')).toBeInTheDocument();
  });

  it('refuses a file over 10MB and an unsupported type in the browser, sending neither', async () => {
    const { user } = setup();
    await user.upload(input(), [file('huge.txt', 10 * MB + 1), file('song.mp3', 20, 'audio/mpeg')]);
    const list = await uploads();
    expect(within(list).getByText('File huge.txt is too large. Maximum size is 10MB.')).toBeInTheDocument();
    expect(
      within(list).getByText('Only .txt files are supported. Please convert song.mp3 to plain text format. Markdown (.md), PDF, Word (.docx) and web page (.html) files are converted to text for you.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Upload Failed: No files were uploaded successfully')).toBeInTheDocument();
    // The spec's "Upload Error", naming how many; each reason is said once, on its file.
    expect(screen.getByText('Upload Error')).toBeInTheDocument();
    expect(screen.getByText('2 files were not uploaded.')).toBeInTheDocument();
    expect(screen.getAllByText(/Please convert song\.mp3 to plain text format/)).toHaveLength(1);
    expect(FakeXhr.requests).toHaveLength(0);

    await user.click(within(list).getByRole('button', { name: 'Dismiss huge.txt' }));
    expect(within(list).queryByText(/huge\.txt/)).toBeNull();
  });

  it('shows the server\'s per-file error while the other file still uploads', async () => {
    const { api, user } = setup();
    const mismatch = 'File fake.pdf is not a valid PDF file: its content does not match its type, or it is corrupt.';
    FakeXhr.autoRespond = (f) => {
      if (f.name === 'fake.pdf') return uploadAnswer({ fileName: f.name, ok: false, error: mismatch });
      const document = makeDocument({ fileName: f.name });
      api.state.documents.unshift(document);
      return uploadAnswer({ fileName: f.name, ok: true, document });
    };
    await user.upload(input(), [file('fake.pdf'), file('good.txt')]);
    expect(within(await uploads()).getByText(mismatch)).toBeInTheDocument();
    expect(await screen.findByText('Upload Failed')).toBeInTheDocument();
    expect(screen.getByText('1 of 2 files could not be uploaded.')).toBeInTheDocument();
    expect(await within(screen.getByRole('list', { name: 'Uploaded documents' })).findByText('good.txt')).toBeInTheDocument();
    expect(screen.queryByText('Upload Failed: No files were uploaded successfully')).toBeNull();
  });

  it('says none were uploaded when the server refused them all, and shows its 413 and network errors', async () => {
    const { user } = setup();
    FakeXhr.autoRespond = (f) =>
      f.name === 'a.txt'
        ? { status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'The upload is too large. Each file can be at most 10MB.' } } }
        : 'network-error';
    await user.upload(input(), [file('a.txt'), file('b.txt')]);
    const list = await uploads();
    expect(await within(list).findByText('The upload is too large. Each file can be at most 10MB.')).toBeInTheDocument();
    expect(within(list).getByText('Upload Failed')).toBeInTheDocument();
    expect(await screen.findByText('Upload Failed: No files were uploaded successfully')).toBeInTheDocument();
  });

  it('uploads files dropped on the drop zone', async () => {
    setup();
    FakeXhr.autoRespond = (f) => uploadAnswer({ fileName: f.name, ok: true, document: makeDocument({ fileName: f.name }) });
    const dropped = file('dropped.txt');
    fireEvent.drop(screen.getByTestId('document-drop-zone'), { dataTransfer: { files: [dropped], types: ['Files'] } });
    expect(await screen.findByText('Document uploaded')).toBeInTheDocument();
    expect(FakeXhr.requests.map((r) => r.file.name)).toEqual(['dropped.txt']);
  });
});
