// The route wires the documents feature into the library: the owner's "Docs" opens the modal
// (kept in the URL as ?docs=), a ?docs= link for someone else's personality gets "Access
// Denied", and ?source=&chunk= opens the read-only source view at that chunk.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from '../app-routes';
import { ada, fakeApi } from '../../test-support/fake-api';
import { renderApp } from '../../test-support/render-app';
import { makePersonality } from '../../features/personalities/test-support/personalities-api-stub';

beforeEach(() => localStorage.setItem(`kindred:onboarding-completed:${ada.id}`, 'true'));
afterEach(() => vi.unstubAllGlobals());

const mine = makePersonality({ id: '7d3c1a52-0000-4000-8000-0000000000a1', name: 'Mine' });
const theirs = makePersonality({ id: '7d3c1a52-0000-4000-8000-0000000000b2', name: 'Theirs', sharingType: 'shared', isOwner: false });

function stub() {
  return fakeApi({
    user: ada,
    override: (c) => {
      if (c.path === '/api/personalities') return { status: 200, body: { personalities: [mine, theirs] } };
      for (const p of [mine, theirs]) {
        if (c.path === `/api/personalities/${p.id}`) return { status: 200, body: { personality: p } };
      }
      if (c.path === `/api/personalities/${mine.id}/documents`) return { status: 200, body: { documents: [] } };
      if (c.path === `/api/personalities/${theirs.id}/documents/doc-1/source`) {
        return {
          status: 200,
          body: {
            personality: { id: theirs.id, name: 'Theirs' },
            document: { id: 'doc-1', fileName: 'memoir.txt', isPrivate: false, chunkCount: 2 },
            state: 'ready',
            chunks: [
              { id: 'c0', chunkIndex: 0, content: 'First.' },
              { id: 'c1', chunkIndex: 1, content: 'Second.' },
            ],
            offset: 0,
            referencedChunkIndex: 1,
            referencedAvailable: true,
            message: null,
          },
        };
      }
      return undefined;
    },
  });
}

describe('documents modal in the library', () => {
  it('opens from the owner\'s Docs button and closes back to the library', async () => {
    stub();
    renderApp(<AppRoutes />);
    const user = userEvent.setup();
    await user.click(within(await screen.findByRole('article', { name: 'Mine' })).getByRole('button', { name: 'Docs for Mine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Documents for Mine' });
    expect(await within(dialog).findByText(/No documents yet/)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('article', { name: 'Mine' })).toBeInTheDocument();
    // Focus is back on the Docs button that opened it (the modal has no dialog trigger).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Docs for Mine' })).toHaveFocus());
  });

  it('gives "Access Denied" to a ?docs= link for a personality the viewer does not own', async () => {
    const api = stub();
    renderApp(<AppRoutes />, { path: `/?docs=${theirs.id}` });
    const dialog = await screen.findByRole('dialog', { name: 'Access Denied' });
    expect(dialog).toHaveTextContent("You don't have permission to manage this personality's documents.");
    expect(api.calls.some((c) => c.path.startsWith(`/api/personalities/${theirs.id}/documents`))).toBe(false);
    await userEvent.setup().click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens the source view at the referenced chunk from ?docs=&source=&chunk=', async () => {
    stub();
    renderApp(<AppRoutes />, { path: `/?docs=${theirs.id}&source=doc-1&chunk=1` });
    const dialog = await screen.findByRole('dialog', { name: 'Source document for Theirs' });
    expect(await within(dialog).findByRole('listitem', { name: 'Chunk 2' })).toHaveTextContent('Referenced');
    expect(within(dialog).getByRole('listitem', { name: 'Chunk 1' })).not.toHaveTextContent('Referenced');
  });
});
