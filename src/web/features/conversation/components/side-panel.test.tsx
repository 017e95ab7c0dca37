// The side panel: "About {name}", the Knowledge Base, and for admins only the measured
// "System Optimizations" figures.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { personality, stubConversationApi, type ConversationStubOptions } from '../test-support/conversation-api-stub';
import { ConversationView } from './conversation-view';

afterEach(() => vi.unstubAllGlobals());

async function render(options: ConversationStubOptions) {
  const api = stubConversationApi(options);
  renderApp(<ConversationView personality={personality} initialMode="text" onBack={() => {}} />);
  await waitFor(() => expect(api.callsTo('GET', '/api/me')).toHaveLength(1));
  return { api, panel: within(await screen.findByRole('complementary', { name: 'Conversation details' })) };
}

describe('side panel', () => {
  it('shows About {name} with safe links, and the Knowledge Base', async () => {
    const { panel } = await render({ user: ada });
    expect(panel.getByText('About Ada Lovelace')).toBeInTheDocument();
    expect(panel.getByRole('link', { name: 'https://example.org/ada' })).toHaveAttribute('href', 'https://example.org/ada');
    const kb = within(screen.getByTestId('knowledge-base'));
    expect(await kb.findByText('2 documents, 14 passages')).toBeInTheDocument();
    expect(kb.getByText('Up to date', { selector: '[data-slot="badge"]' })).toBeInTheDocument();
    // Each document by name with its status (a tick named "Ready"): the word "Ready" on this
    // screen is Self-paced Chat's status alone.
    const docs = within(kb.getByRole('list', { name: 'Documents' }));
    expect(docs.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['letters.txt', 'notes.pdf']);
    expect(docs.getAllByRole('img', { name: 'Ready' })).toHaveLength(2);
    expect(kb.queryByText('Ready')).toBeNull();
  });

  it('says when documents are still processing, and when there are none', async () => {
    await render({
      knowledge: {
        documents: 3,
        chunks: 0,
        processing: 3,
        ready: false,
        items: [{ id: 'doc-3', fileName: 'diary.txt', status: 'processing', progress: 40 }],
      },
    });
    expect(await screen.findByText('Processing 40%')).toBeInTheDocument();
    expect(await screen.findByText('3 documents processing')).toBeInTheDocument();
    expect(screen.queryByText('Ready')).toBeNull();
  });

  it('shows the measured context-cache figures to an admin', async () => {
    const { panel } = await render({ user: ada, isAdmin: true });
    const card = within(await panel.findByTestId('system-optimizations'));
    expect(card.getByText('System Optimizations')).toBeInTheDocument();
    expect(await card.findByText('75%')).toBeInTheDocument();
    expect(card.getByText('9 hits, 3 misses')).toBeInTheDocument();
    expect(card.getByText('12 ms')).toBeInTheDocument();
    expect(card.getByText('48 ms')).toBeInTheDocument();
    expect(card.getByText('75% faster')).toBeInTheDocument();
  });

  it('does not show or ask for them when the viewer is not an admin', async () => {
    const { api, panel } = await render({ user: ada, isAdmin: false });
    await screen.findByText('2 documents, 14 passages');
    expect(panel.queryByText('System Optimizations')).toBeNull();
    expect(api.callsTo('GET', '/api/admin/system-optimizations')).toHaveLength(0);
  });
});
