// A large library gets a search box: it narrows the cards by name or description (any case, any
// accents), says how many match, and hides rather than removes cards (an open edit keeps its text).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Personality } from '../../../../shared/schemas/personality';
import { PersonalitiesDashboard } from './personalities-dashboard';
import { ada, makePersonality, renderWithApp, stubApi } from '../test-support/personalities-api-stub';
import { SEARCH_FROM } from './personality-grid';

afterEach(() => vi.unstubAllGlobals());

function renderLibrary(personalities: Personality[]) {
  stubApi({ viewer: ada, personalities });
  renderWithApp(<PersonalitiesDashboard renderConversation={() => null} />);
  return userEvent.setup();
}

const publicOnes = Array.from({ length: 12 }, (_, i) =>
  makePersonality({ name: `Public ${i}`, description: 'A famous figure', sharingType: 'public', isPublic: true, isOwner: false }),
);

const visibleNames = () =>
  within(screen.getByRole('list', { name: 'Personalities' }))
    .queryAllByRole('article')
    .map((a) => document.getElementById(a.getAttribute('aria-labelledby')!)?.textContent);

describe('library search', () => {
  it('is not shown for a small library', async () => {
    renderLibrary(publicOnes.slice(0, SEARCH_FROM - 1));
    await screen.findByRole('article', { name: 'Public 0' });
    expect(screen.queryByRole('searchbox', { name: 'Search personalities' })).toBeNull();
  });

  it('narrows a large library by name or description, ignoring case and accents', async () => {
    const zoe = makePersonality({ name: 'Zoë Marchetti', description: 'My grandmother, the baker of Lucca' });
    const eloise = makePersonality({ name: 'Grand-père', description: 'Éloïse’s grandfather' });
    const user = renderLibrary([...publicOnes, zoe, eloise]);
    const search = await screen.findByRole('searchbox', { name: 'Search personalities' });
    expect(visibleNames()).toHaveLength(14);

    await user.type(search, 'zoe');
    expect(visibleNames()).toEqual(['Zoë Marchetti']);
    expect(screen.getByText('1 of 14 personalities')).toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'ELOISE grandfather');
    expect(visibleNames()).toEqual(['Grand-père']);

    await user.clear(search);
    await user.type(search, 'nobody here');
    expect(visibleNames()).toEqual([]);
    expect(screen.getByText('No personalities match "nobody here".')).toBeInTheDocument();

    await user.clear(search);
    expect(visibleNames()).toHaveLength(14);
  });
});
