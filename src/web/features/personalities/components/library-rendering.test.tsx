// A library of hundreds of personalities stays quick: the grid renders a page of cards at first
// and more as the person scrolls or asks, while the search still finds every personality; a
// card's dialogs are mounted when first opened; and cards already shown are not rendered again
// as the person types a search. Where focus goes, and what is kept across a visit to a
// conversation, stay as they were.
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Personality } from '../../../../shared/schemas/personality';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { PersonalitiesDashboard } from './personalities-dashboard';
import { PAGE_SIZE } from './personality-grid';
import { ada, makePersonality, renderWithApp, stubApi } from '../test-support/personalities-api-stub';
import { AlertDialog } from '../../../components/ui/alert-dialog';

// The confirmation's root, watched: it is rendered only once a confirmation is asked for.
vi.mock('../../../components/ui/alert-dialog', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../components/ui/alert-dialog')>();
  return { ...original, AlertDialog: vi.fn(original.AlertDialog) };
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(AlertDialog).mockClear();
});

const TOTAL = PAGE_SIZE * 2 + 12;
const pad = (i: number) => String(i).padStart(3, '0');
const publicOnes = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    makePersonality({ name: `Figure ${pad(i)}`, description: `Famous figure number ${pad(i)}`, sharingType: 'public', isPublic: true, isOwner: false }),
  );

const cardNames = () =>
  within(screen.getByRole('list', { name: 'Personalities' }))
    .queryAllByRole('article')
    .map((a) => document.getElementById(a.getAttribute('aria-labelledby')!)?.textContent);

/** A stand-in for the route's Share dialog (the sharing feature), with its own trigger. */
function FakeShare({ personality, defaultOpen }: { personality: Personality; defaultOpen: boolean }) {
  return (
    <Dialog defaultOpen={defaultOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="icon" aria-label={`Share ${personality.name}`}>
          S
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Share {personality.name}</DialogTitle>
        <DialogDescription>Choose who can see and chat with this personality.</DialogDescription>
      </DialogContent>
    </Dialog>
  );
}

function renderLibrary(personalities: Personality[], { path = '/', viewer = ada }: { path?: string; viewer?: typeof ada | null } = {}) {
  stubApi({ viewer, personalities });
  const renderShareAction = vi.fn((p: Personality, _onChanged: () => void, options?: { defaultOpen: boolean }) => (
    <FakeShare personality={p} defaultOpen={options?.defaultOpen ?? false} />
  ));
  renderWithApp(
    <PersonalitiesDashboard
      renderConversation={(p, onBack) => (
        <div>
          <h2>Conversation with {p.name}</h2>
          <button onClick={onBack}>Back</button>
        </div>
      )}
      renderShareAction={renderShareAction}
    />,
    { path },
  );
  return { user: userEvent.setup(), renderShareAction };
}

describe('a large library', () => {
  it('renders its first page of cards, then the next one when asked, and the search finds any personality', async () => {
    const { user } = renderLibrary(publicOnes(TOTAL));
    await screen.findByRole('article', { name: 'Figure 000' });
    expect(cardNames()).toHaveLength(PAGE_SIZE);
    expect(screen.queryByRole('article', { name: `Figure ${pad(PAGE_SIZE)}` })).toBeNull();
    expect(screen.getByText(`Showing ${PAGE_SIZE} of ${TOTAL} personalities`)).toBeInTheDocument();

    // The search covers the cards not rendered yet.
    const search = screen.getByRole('searchbox', { name: 'Search personalities' });
    const last = `Figure ${pad(TOTAL - 1)}`;
    await user.type(search, last);
    expect(cardNames()).toEqual([last]);
    expect(screen.getByText(`1 of ${TOTAL} personalities`)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more personalities' })).toBeNull();
    await user.clear(search);
    expect(cardNames()).toHaveLength(PAGE_SIZE);

    // "Show more": the next page, and the keyboard goes on from its first card.
    await user.click(screen.getByRole('button', { name: 'Show more personalities' }));
    expect(cardNames()).toHaveLength(PAGE_SIZE * 2);
    await waitFor(() => expect(screen.getByRole('button', { name: `Start Chat with Figure ${pad(PAGE_SIZE)}` })).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Show more personalities' }));
    expect(cardNames()).toHaveLength(TOTAL);
    expect(screen.queryByRole('button', { name: 'Show more personalities' })).toBeNull();
    expect(screen.queryByText(/^Showing/)).toBeNull();
  });

  it('shows the next page as the person scrolls near its end', async () => {
    const observers: { callback: IntersectionObserverCallback; target?: Element }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        private entry: { callback: IntersectionObserverCallback; target?: Element };
        constructor(callback: IntersectionObserverCallback) {
          this.entry = { callback };
          observers.push(this.entry);
        }
        observe(target: Element) {
          this.entry.target = target;
        }
        disconnect() {
          this.entry.target = undefined;
        }
        unobserve() {}
        takeRecords() {
          return [];
        }
      },
    );
    renderLibrary(publicOnes(TOTAL));
    await screen.findByRole('article', { name: 'Figure 000' });
    const watching = observers.filter((o) => o.target);
    expect(watching).toHaveLength(1);
    expect(watching[0]!.target).toBe(screen.getByRole('button', { name: 'Show more personalities' }));
    act(() => watching[0]!.callback([{ isIntersecting: true, target: watching[0]!.target! } as IntersectionObserverEntry], {} as IntersectionObserver));
    await waitFor(() => expect(cardNames()).toHaveLength(PAGE_SIZE * 2));
  });

  it("keeps a card's open edit form while a search hides it, also a card the search brought in", async () => {
    const mine = makePersonality({ name: 'Zoë Marchetti', description: 'My grandmother' });
    const { user } = renderLibrary([...publicOnes(TOTAL), mine]);
    const search = await screen.findByRole('searchbox', { name: 'Search personalities' });
    await user.type(search, 'zoe');
    await user.click(within(screen.getByRole('article', { name: 'Zoë Marchetti' })).getByRole('button', { name: 'Edit Zoë Marchetti' }));
    const form = await screen.findByRole('form', { name: 'Edit Zoë Marchetti' });
    await user.type(within(form).getByLabelText('Behavior instructions'), 'Speak of Lucca.');
    await user.clear(search);
    expect(cardNames()).toHaveLength(PAGE_SIZE);
    await user.type(search, 'marchetti');
    expect(within(screen.getByRole('form', { name: 'Edit Zoë Marchetti' })).getByLabelText('Behavior instructions')).toHaveValue('Speak of Lucca.');
  });

  it('after a conversation, shows the library as it was left and focuses the card chatted with', async () => {
    const { user } = renderLibrary(publicOnes(TOTAL));
    const search = await screen.findByRole('searchbox', { name: 'Search personalities' });
    await user.type(search, `Figure ${pad(TOTAL - 2)}`);
    await user.click(screen.getByRole('button', { name: `Start Chat with Figure ${pad(TOTAL - 2)}` }));
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.getByRole('button', { name: `Start Chat with Figure ${pad(TOTAL - 2)}` })).toHaveFocus());
    expect(screen.getByRole('searchbox', { name: 'Search personalities' })).toHaveValue(`Figure ${pad(TOTAL - 2)}`);
  });

  it('after a conversation opened by a link, shows enough of the library to focus its card', async () => {
    const all = publicOnes(TOTAL);
    const far = all[PAGE_SIZE + 5]!;
    const { user } = renderLibrary(all, { path: `/?chat=${far.id}`, viewer: null });
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.getByRole('button', { name: `Start Chat with ${far.name}` })).toHaveFocus());
    expect(cardNames()).toHaveLength(PAGE_SIZE * 2);
  });
});

describe("a card's dialogs", () => {
  it('are mounted when first opened: the Share dialog opens with one press and gives focus back to its button', async () => {
    const mine = Array.from({ length: 3 }, (_, i) => makePersonality({ name: `Mine ${i}` }));
    const { user, renderShareAction } = renderLibrary(mine);
    const card = within(await screen.findByRole('article', { name: 'Mine 1' }));
    expect(renderShareAction).not.toHaveBeenCalled();

    await user.click(card.getByRole('button', { name: 'Share Mine 1' }));
    expect(renderShareAction).toHaveBeenCalledTimes(1);
    expect(renderShareAction.mock.calls[0]![0].name).toBe('Mine 1');
    const dialog = await screen.findByRole('dialog', { name: 'Share Mine 1' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    await waitFor(() => expect(card.getByRole('button', { name: 'Share Mine 1' })).toHaveFocus());
    expect(renderShareAction.mock.calls.every(([p]) => p.name === 'Mine 1')).toBe(true);
  });

  it("keeps the Share button in place while the Share dialog's code loads (the route loads it when first pressed)", async () => {
    stubApi({ viewer: ada, personalities: [makePersonality({ name: 'Slow' })] });
    let arrive!: () => void;
    const LazyShare = lazy(() => new Promise<{ default: typeof FakeShare }>((resolve) => (arrive = () => resolve({ default: FakeShare }))));
    renderWithApp(
      <PersonalitiesDashboard
        renderConversation={() => null}
        renderShareAction={(p, _onChanged, options) => <LazyShare personality={p} defaultOpen={options?.defaultOpen ?? false} />}
      />,
    );
    const user = userEvent.setup();
    const card = within(await screen.findByRole('article', { name: 'Slow' }));
    await user.click(card.getByRole('button', { name: 'Share Slow' }));
    // Loading: the card and its button stay (marked busy), no dialog yet.
    const waiting = card.getByRole('button', { name: 'Share Slow' });
    expect(waiting).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('article', { name: 'Slow' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    arrive();
    expect(await screen.findByRole('dialog', { name: 'Share Slow' })).toBeInTheDocument();
  });

  it('the delete confirmation is mounted when asked for, and Cancel or Escape go back to its button', async () => {
    const { user } = renderLibrary([makePersonality({ name: 'Kept' }), makePersonality({ name: 'Other' })]);
    const card = within(await screen.findByRole('article', { name: 'Kept' }));
    const trigger = card.getByRole('button', { name: 'Delete Kept' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'dialog');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(AlertDialog).not.toHaveBeenCalled();

    await user.click(trigger);
    expect(vi.mocked(AlertDialog).mock.calls.every(([props]) => props.open !== undefined)).toBe(true);
    expect(await screen.findByRole('alertdialog', { name: 'Delete Kept?' })).toBeInTheDocument();
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(trigger).toHaveFocus());

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alertdialog', { name: 'Delete Kept?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(trigger).toHaveFocus());
    expect(await screen.findByRole('article', { name: 'Kept' })).toBeInTheDocument();
  });

  it('cards already shown are not rendered again while the person types a search', async () => {
    const mine = Array.from({ length: 12 }, (_, i) => makePersonality({ name: `Mine ${pad(i)}` }));
    const { user, renderShareAction } = renderLibrary(mine);
    const card = within(await screen.findByRole('article', { name: 'Mine 003' }));
    await user.click(card.getByRole('button', { name: 'Share Mine 003' }));
    await screen.findByRole('dialog', { name: 'Share Mine 003' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const renders = renderShareAction.mock.calls.length;

    await user.type(screen.getByRole('searchbox', { name: 'Search personalities' }), 'mine 00');
    expect(cardNames()).toHaveLength(10);
    expect(renderShareAction.mock.calls.length).toBe(renders);
  });
});
