// The document list: the spec's status labels and live progress, updates from the event stream
// (polling when there is none), the owner's actions and their failure toasts, and the chunk viewer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { ada, type FakeCall } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { apiError, makeChunks, makeDocument, personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { FakeEventSource } from '../test-support/fake-browser-io';
import { DocumentsTab } from './documents-tab';

afterEach(() => vi.unstubAllGlobals());

function setup(documents: DocumentDto[], override?: (call: FakeCall) => ReturnType<typeof apiError> | undefined, chunks = {}) {
  const api = stubDocumentsApi({ user: ada, documents, override, chunks });
  renderApp(<DocumentsTab personalityId={personalityId} />);
  return { api, user: userEvent.setup() };
}

const row = (name: string) => screen.findByRole('listitem', { name });
const statusOf = async (name: string) => within(await row(name)).getByTestId('document-status');
const listPath = `/api/personalities/${personalityId}/documents`;

describe('document list', () => {
  it('shows the count, newest first, and each status in the spec\'s words', async () => {
    setup([
      makeDocument({ fileName: 'old.txt', status: 'needs_processing', hasContent: false, chunkCount: 0, createdAt: '2026-01-01T00:00:00.000Z' }),
      makeDocument({ fileName: 'newest.txt', status: 'ready', createdAt: '2026-01-05T00:00:00.000Z' }),
      makeDocument({ fileName: 'text-only.txt', status: 'needs_chunking', chunkCount: 0, createdAt: '2026-01-02T00:00:00.000Z' }),
      makeDocument({ fileName: 'busy.pdf', status: 'processing', progress: 40, createdAt: '2026-01-04T00:00:00.000Z' }),
      makeDocument({ fileName: 'broken.pdf', status: 'failed', error: 'No text could be extracted from broken.pdf.', createdAt: '2026-01-03T00:00:00.000Z' }),
    ]);
    const list = await screen.findByRole('list', { name: 'Uploaded documents' });
    expect(screen.getByTestId('document-count')).toHaveTextContent('5');
    expect(within(list).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual([
      'newest.txt',
      'busy.pdf',
      'broken.pdf',
      'text-only.txt',
      'old.txt',
    ]);
    expect(await statusOf('old.txt')).toHaveTextContent('Needs Processing');
    expect(await statusOf('text-only.txt')).toHaveTextContent('Needs Chunking');
    expect(await statusOf('newest.txt')).toHaveTextContent('Ready');
    expect(await statusOf('busy.pdf')).toHaveTextContent('Processing 40%');
    expect(within(await row('busy.pdf')).getByRole('progressbar', { name: 'Processing busy.pdf' })).toHaveAttribute('aria-valuenow', '40');
    expect(within(await row('broken.pdf')).getByRole('alert')).toHaveTextContent('No text could be extracted from broken.pdf.');
    // A running job cannot be started again; text-less documents cannot be rechunked.
    expect(within(await row('busy.pdf')).getByRole('button', { name: 'Process' })).toBeDisabled();
    expect(within(await row('old.txt')).getByRole('button', { name: 'Rechunk' })).toBeDisabled();
    expect(within(await row('text-only.txt')).getByRole('button', { name: 'Rechunk' })).toBeEnabled();
  });

  it('shows a file name as text, never as HTML', async () => {
    setup([makeDocument({ fileName: '<img src=x onerror=alert(1)>.txt' })]);
    expect(await screen.findByText('<img src=x onerror=alert(1)>.txt')).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });

  it('follows the live stream, and does not poll while it is connected', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    const doc = makeDocument({ fileName: 'live.txt', status: 'processing', progress: 10 });
    const { api } = setup([doc]);
    expect(await statusOf('live.txt')).toHaveTextContent('Processing 10%');
    const stream = FakeEventSource.instances[0]!;
    expect(stream.url).toBe(`${listPath}/events`);

    act(() => stream.open());
    act(() => stream.emit('documents', { documents: [{ ...doc, progress: 60 }] }));
    expect(await statusOf('live.txt')).toHaveTextContent('Processing 60%');
    act(() => stream.emit('documents', { documents: [{ ...doc, status: 'ready', progress: 100, chunkCount: 3 }] }));
    expect(await statusOf('live.txt')).toHaveTextContent('Ready');

    const before = api.callsTo('GET', listPath).length;
    await new Promise((r) => setTimeout(r, 2600));
    expect(api.callsTo('GET', listPath)).toHaveLength(before);
  });

  it('polls every 2 s when the stream is not connected', async () => {
    const { api } = setup([makeDocument({ fileName: 'polled.txt', status: 'processing', progress: 20 })]);
    expect(await statusOf('polled.txt')).toHaveTextContent('Processing 20%');
    api.state.documents = api.state.documents.map((d) => ({ ...d, status: 'ready', progress: 100 }));
    await waitFor(async () => expect(await statusOf('polled.txt')).toHaveTextContent('Ready'), { timeout: 4000 });
  });

  it('re-runs processing with "Process"', async () => {
    const doc = makeDocument({ fileName: 'again.txt' });
    const { api, user } = setup([doc]);
    await user.click(within(await row('again.txt')).getByRole('button', { name: 'Process' }));
    expect(await statusOf('again.txt')).toHaveTextContent('Processing 0%');
    expect(api.callsTo('POST', `${listPath}/${doc.id}/process`)).toHaveLength(1);
  });

  it.each([
    ['Process', 'process', 'Processing Failed'],
    ['Rechunk', 'rechunk', 'Rechunking Failed'],
  ])('reports a failed %s with its toast and the server\'s reason', async (button, action, title) => {
    const doc = makeDocument({ fileName: 'x.txt' });
    const { user } = setup([doc], (c) =>
      c.path.endsWith(`/${action}`) ? apiError(409, 'CONFLICT', 'This document is already being processed.') : undefined,
    );
    await user.click(within(await row('x.txt')).getByRole('button', { name: button }));
    expect(await screen.findByText(title)).toBeInTheDocument();
    expect(screen.getByText('This document is already being processed.')).toBeInTheDocument();
  });

  it('toggles privacy, and puts the switch back with "Privacy Update Failed" on error', async () => {
    const doc = makeDocument({ fileName: 'diary.txt' });
    let failing = false;
    const { api, user } = setup([doc], (c) => (failing && c.method === 'PATCH' ? apiError(500, 'INTERNAL', 'boom') : undefined));
    const toggle = within(await row('diary.txt')).getByRole('switch', { name: 'Private' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'diary.txt' })).getByRole('switch', { name: 'Private' })).toBeChecked());
    expect(api.callsTo('PATCH', `${listPath}/${doc.id}`).map((c) => c.body)).toEqual([{ isPrivate: true }]);

    failing = true;
    await user.click(within(await row('diary.txt')).getByRole('switch', { name: 'Private' }));
    expect(await screen.findByText('Privacy Update Failed')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'diary.txt' })).getByRole('switch', { name: 'Private' })).toBeChecked());
  });

  it('tells the owner a document held for review is why it is private, beside its Private switch', async () => {
    setup([makeDocument({ fileName: 'held.txt', isPrivate: true, heldForReview: true }), makeDocument({ fileName: 'free.txt', isPrivate: true })]);
    const held = within(await row('held.txt'));
    expect(held.getByTestId('document-held')).toHaveTextContent(messages.documents.heldForReview);
    const toggle = held.getByRole('switch', { name: 'Private' });
    expect(toggle).toBeChecked();
    // Until an admin clears it the server refuses to make it public: the switch says why.
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription(messages.moderation.documentHeld);
    const free = within(await row('free.txt'));
    expect(free.queryByTestId('document-held')).toBeNull();
    expect(free.getByRole('switch', { name: 'Private' })).toBeEnabled();
    expect(free.getByRole('switch', { name: 'Private' })).not.toHaveAccessibleDescription();
  });

  it('deletes only after confirmation', async () => {
    const doc = makeDocument({ fileName: 'gone.txt' });
    const { api, user } = setup([doc, makeDocument({ fileName: 'kept.txt' })]);
    await user.click(within(await row('gone.txt')).getByRole('button', { name: 'Delete gone.txt' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to delete "gone.txt"? Its chunks will be removed too.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', `${listPath}/${doc.id}`)).toHaveLength(0);

    await user.click(within(await row('gone.txt')).getByRole('button', { name: 'Delete gone.txt' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'gone.txt' })).toBeNull());
    expect(api.callsTo('DELETE', `${listPath}/${doc.id}`)).toHaveLength(1);
    expect(screen.getByTestId('document-count')).toHaveTextContent('1');
  });

  it('says "Failed to delete document" and keeps the row when the delete fails', async () => {
    const { user } = setup([makeDocument({ fileName: 'stays.txt' })], (c) =>
      c.method === 'DELETE' ? apiError(500, 'INTERNAL', 'An unexpected error occurred') : undefined,
    );
    await user.click(within(await row('stays.txt')).getByRole('button', { name: 'Delete stays.txt' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete document')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'stays.txt' })).toBeInTheDocument();
  });

  it('says "Failed to load documents" when the list cannot be read', async () => {
    setup([], (c) => (c.path === listPath ? apiError(500, 'INTERNAL', 'An unexpected error occurred') : undefined));
    expect(await screen.findByText('Failed to load documents')).toBeInTheDocument();
  });

  it('opens the chunk viewer with the chunks in order, and goes back', async () => {
    const doc = makeDocument({ fileName: 'essay.txt', chunkCount: 3 });
    const { user } = setup([doc], undefined, { [doc.id]: makeChunks(3, (i) => `Part ${i + 1} of the essay.`) });
    await user.click(within(await row('essay.txt')).getByRole('button', { name: 'View chunks of essay.txt' }));
    const chunks = await screen.findByRole('list', { name: 'Chunks of essay.txt' });
    const items = within(chunks).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('aria-label'))).toEqual(['Chunk 1', 'Chunk 2', 'Chunk 3']);
    expect(items[1]).toHaveTextContent('Part 2 of the essay.');
    expect(screen.queryByText('Referenced')).toBeNull();
    const back = screen.getByRole('button', { name: 'Back to Documents' });
    expect(back).toHaveFocus();
    await user.click(back);
    expect(await screen.findByRole('list', { name: 'Uploaded documents' })).toBeInTheDocument();
    // Back where the viewer was opened from.
    await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'essay.txt' })).getByRole('button', { name: 'View chunks of essay.txt' })).toHaveFocus());
  });

  it('pages through a long document with "Load more"', async () => {
    const doc = makeDocument({ fileName: 'long.txt', chunkCount: 130 });
    const { user } = setup([doc], undefined, { [doc.id]: makeChunks(130) });
    await user.click(within(await row('long.txt')).getByRole('button', { name: 'View chunks of long.txt' }));
    const chunks = await screen.findByRole('list', { name: 'Chunks of long.txt' });
    expect(within(chunks).getAllByRole('listitem')).toHaveLength(100);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(chunks).getAllByRole('listitem')).toHaveLength(130));
    expect(within(chunks).getAllByRole('listitem').at(-1)).toHaveAccessibleName('Chunk 130');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('imports an article by URL, and shows the server\'s refusal', async () => {
    const { api, user } = setup([], (c) =>
      c.method === 'POST' && (c.body as { url: string }).url.includes('localhost')
        ? apiError(400, 'BAD_REQUEST', 'This address cannot be imported: it points to a private or local network.')
        : undefined,
    );
    const field = await screen.findByLabelText('Import an article by URL');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Please enter a valid http or https address.')).toBeInTheDocument();
    await user.type(field, 'http://localhost/admin');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('This address cannot be imported: it points to a private or local network.')).toBeInTheDocument();
    expect(field).toHaveValue('http://localhost/admin');

    await user.clear(field);
    await user.type(field, ' https://example.com/essay {Enter}');
    expect(await screen.findByText('Article imported')).toBeInTheDocument();
    expect(api.callsTo('POST', `${listPath}/url`).at(-1)?.body).toEqual({ url: 'https://example.com/essay' });
    expect(field).toHaveValue('');
    expect(await row('Imported article')).toBeInTheDocument();
  });
});
