// The read-only source view: the referenced chunk marked and scrolled to, and the spec's words
// for a document not processed yet and for a chunk that is gone.
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SourceView } from '../../../../shared/schemas/documents';
import { renderApp } from '../../../test-support/render-app';
import { apiError, makeChunks, personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { SourceDocumentDialog } from './source-document-dialog';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const documentId = '00000000-0000-4000-8000-00000000abcd';

function view(overrides: Partial<SourceView> = {}): SourceView {
  return {
    personality: { id: personalityId, name: 'Ada Lovelace' },
    document: { id: documentId, fileName: 'notes.txt', isPrivate: false, chunkCount: 5 },
    state: 'ready',
    chunks: makeChunks(5, (i) => `Passage ${i + 1} about engines.`),
    offset: 0,
    referencedChunkIndex: 2,
    referencedAvailable: true,
    message: null,
    ...overrides,
  };
}

function open(source: SourceView | ReturnType<typeof apiError>, chunkIndex = 2, user: typeof import('../../../test-support/fake-api').ada | null = null) {
  const api = stubDocumentsApi({ user, source });
  const onClose = vi.fn();
  renderApp(
    <SourceDocumentDialog
      personalityId={personalityId}
      personalityName="Ada Lovelace"
      documentId={documentId}
      chunkIndex={chunkIndex}
      onClose={onClose}
    />,
  );
  return { api, onClose, user: userEvent.setup() };
}

describe('Source document dialog', () => {
  it('marks the referenced chunk "Referenced", scrolls it into view and focuses it', async () => {
    const scrolled: Element[] = [];
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    const { api, onClose, user } = open(view());
    const dialog = await screen.findByRole('dialog', { name: 'Source document for Ada Lovelace' });
    const referenced = await within(dialog).findByRole('listitem', { name: 'Chunk 3' });
    expect(dialog).toHaveAccessibleDescription('notes.txt (chunk 3)');
    expect(referenced).toHaveTextContent('Referenced');
    expect(referenced).toHaveTextContent('Passage 3 about engines.');
    expect(referenced).toHaveAttribute('aria-current', 'true');
    expect(within(dialog).getAllByText('Referenced')).toHaveLength(1);
    await waitFor(() => expect(scrolled).toContain(referenced));
    expect(referenced).toHaveFocus();
    // Anonymous visitors may open it: the request carries the 0-based index the reference holds.
    expect(api.calls.find((c) => c.path.endsWith('/source'))?.query.get('chunk')).toBe('2');

    await user.click(within(dialog).getByRole('button', { name: 'Close' })); // one, the footer's
    expect(onClose).toHaveBeenCalled();
  });

  it('says the document has not been processed yet', async () => {
    open(
      view({
        state: 'not_processed',
        chunks: [],
        referencedAvailable: false,
        message: "This document hasn't been processed yet. Ask the owner to process it to view chunks.",
      }),
    );
    expect(
      await screen.findByText("This document hasn't been processed yet. Ask the owner to process it to view chunks."),
    ).toBeInTheDocument();
    expect(screen.queryByText('Referenced')).toBeNull();
  });

  it('says the chunk is unavailable when it is gone, and still shows the document', async () => {
    open(
      view({
        referencedChunkIndex: 9,
        referencedAvailable: false,
        message: 'Unable to load chunk: This referenced chunk is not available.',
      }),
      9,
    );
    expect(await screen.findByText('Unable to load chunk: This referenced chunk is not available.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Chunks of notes.txt' })).toBeInTheDocument();
    expect(screen.queryByText('Referenced')).toBeNull();
  });

  it('says the chunk is unavailable when the document is gone or private', async () => {
    open(apiError(404, 'NOT_FOUND', 'Unable to load chunk: This referenced chunk is not available.'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load chunk: This referenced chunk is not available.');
  });

  it('shows which part of a long document it shows', async () => {
    const chunks = makeChunks(200).slice(50, 150);
    open(view({ document: { id: documentId, fileName: 'long.txt', isPrivate: false, chunkCount: 200 }, chunks, offset: 50, referencedChunkIndex: 100 }), 100);
    expect(await screen.findByText('Showing chunks 51–150 of 200')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Chunk 101' })).toHaveTextContent('Referenced');
  });

  it('gives focus back to the reference it was opened from when closed (Escape or Close)', async () => {
    stubDocumentsApi({ user: null, source: view() });
    // Opened by state, as the route opens it from a reply's reference: there is no dialog trigger.
    function Reply() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            notes.txt (chunk 3)
          </button>
          {open && (
            <SourceDocumentDialog personalityId={personalityId} personalityName="Ada Lovelace" documentId={documentId} chunkIndex={2} onClose={() => setOpen(false)} />
          )}
        </>
      );
    }
    renderApp(<Reply />);
    const user = userEvent.setup();
    const chip = screen.getByRole('button', { name: 'notes.txt (chunk 3)' });
    for (const close of ['{Escape}', 'Close'] as const) {
      chip.focus();
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Source document for Ada Lovelace' });
      await within(dialog).findByRole('listitem', { name: 'Chunk 3' });
      if (close === 'Close') await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
      else await user.keyboard(close);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(chip).toHaveFocus());
    }
  });
});
