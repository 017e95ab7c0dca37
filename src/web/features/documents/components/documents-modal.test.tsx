// The modal's states: a loading dialog while ownership is checked, the owner's tabs, "Access
// Denied" for anyone else, and the read-only source view when opened at a reference.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import {
  makeChunks,
  makeDocument,
  personalityId,
  stubDocumentsApi,
  type DocumentsStubOptions,
} from '../test-support/documents-api-stub';
import { DocumentsModal } from './documents-modal';

afterEach(() => vi.unstubAllGlobals());

function open(options: Partial<DocumentsStubOptions> = {}, reference?: { documentId: string; chunkIndex: number }) {
  const api = stubDocumentsApi({ user: ada, ...options });
  const onClose = vi.fn();
  renderApp(<DocumentsModal personalityId={personalityId} reference={reference} onClose={onClose} />);
  return { api, onClose, user: userEvent.setup() };
}

describe('Documents modal', () => {
  it('shows a loading dialog while ownership is checked, then the owner gets both tabs', async () => {
    let release!: () => void;
    const checked = new Promise<void>((resolve) => (release = resolve));
    const { api } = open({
      documents: [makeDocument({ fileName: 'letters.txt' })],
      override: async (c) => {
        if (c.path === `/api/personalities/${personalityId}`) await checked;
        return undefined;
      },
    });
    const loading = await screen.findByRole('dialog', { name: 'Documents' });
    expect(within(loading).getByRole('status')).toHaveTextContent('Checking permissions...');
    // Nothing of the owner's is asked for before the server says who owns it.
    expect(api.callsTo('GET', `/api/personalities/${personalityId}/documents`)).toHaveLength(0);

    release();
    const dialog = await screen.findByRole('dialog', { name: 'Documents for Ada Lovelace' });
    expect(within(dialog).getByRole('tab', { name: 'Documents' })).toHaveAttribute('aria-selected', 'true');
    expect(within(dialog).getByRole('tab', { name: 'User Questions' })).toBeInTheDocument();
    expect(await within(dialog).findByText('letters.txt')).toBeInTheDocument();
    expect(screen.queryByText('Checking permissions...')).toBeNull();
  });

  it('switches to the User Questions tab', async () => {
    const { user } = open({
      questions: [{ id: 'q1', questionText: 'What is the Analytical Engine?', askedAt: '2026-01-03T10:00:00.000Z', isRegisteredUser: false }],
    });
    const dialog = await screen.findByRole('dialog', { name: 'Documents for Ada Lovelace' });
    await user.click(within(dialog).getByRole('tab', { name: 'User Questions' }));
    expect(await within(dialog).findByText('What is the Analytical Engine?')).toBeInTheDocument();
  });

  it('gives a non-owner "Access Denied" with the spec text, and Close closes it', async () => {
    const { api, onClose, user } = open({ isOwner: false });
    const dialog = await screen.findByRole('dialog', { name: 'Access Denied' });
    expect(dialog).toHaveTextContent("You don't have permission to manage this personality's documents.");
    expect(within(dialog).queryByRole('tab')).toBeNull();
    expect(api.callsTo('GET', `/api/personalities/${personalityId}/documents`)).toHaveLength(0);
    // One Close (the footer's): a corner one too would make "the Close button" ambiguous.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('says "Access Denied" too when the personality is not visible at all', async () => {
    open({ hidden: true });
    expect(await screen.findByRole('dialog', { name: 'Access Denied' })).toBeInTheDocument();
  });

  it('offers Retry, not "Access Denied", when the check itself failed', async () => {
    let fail = true;
    const { user } = open({
      override: (c) =>
        fail && c.path === `/api/personalities/${personalityId}`
          ? { status: 500, body: { error: { code: 'INTERNAL', message: 'An unexpected error occurred' } } }
          : undefined,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Documents' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('An unexpected error occurred');
    expect(screen.queryByText('Access Denied')).toBeNull();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('dialog', { name: 'Documents for Ada Lovelace' })).toBeInTheDocument();
  });

  it('opened at a reference, shows the read-only source view instead, for a non-owner too', async () => {
    const documentId = makeDocument().id;
    const { api } = open(
      {
        isOwner: false,
        source: {
          personality: { id: personalityId, name: 'Ada Lovelace' },
          document: { id: documentId, fileName: 'notes.txt', isPrivate: false, chunkCount: 3 },
          state: 'ready',
          chunks: makeChunks(3),
          offset: 0,
          referencedChunkIndex: 1,
          referencedAvailable: true,
          message: null,
        },
      },
      { documentId, chunkIndex: 1 },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Source document for Ada Lovelace' });
    await waitFor(() => expect(within(dialog).getByRole('listitem', { name: 'Chunk 2' })).toHaveTextContent('Referenced'));
    expect(screen.queryByText('Access Denied')).toBeNull();
    expect(api.callsTo('GET', `/api/personalities/${personalityId}/documents/${documentId}/source`)[0]?.query.get('chunk')).toBe('1');
  });
});
