import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { makeAdminPersonality, stubAdminApi, type AdminStubOptions } from '../test-support/admin-api-stub';
import { KEYBOARD_STEP_PX, keyboardCoordinates, OrderingTab } from './ordering-tab';

afterEach(() => vi.unstubAllGlobals());

const charlie = makeAdminPersonality({ name: 'Charlie', createdAt: '2025-02-01T09:05:00.000Z', creatorEmail: 'c@example.com', description: 'Third' });
const alice = makeAdminPersonality({ name: 'alice', createdAt: '2025-03-01T10:00:00.000Z' });
const bob = makeAdminPersonality({ name: 'Bob', createdAt: '2025-01-15T23:30:00.000Z' });

function open(options: AdminStubOptions = { publicPersonalities: [charlie, alice, bob] }) {
  const api = stubAdminApi(options);
  renderApp(<OrderingTab />);
  return { api, user: userEvent.setup() };
}

async function cards() {
  const list = await screen.findByRole('list', { name: 'Public personalities in library order' });
  return within(list)
    .getAllByTestId('ordering-card')
    .map((card) => ({
      name: within(card).getByRole('heading').textContent,
      order: (within(card).getByRole('spinbutton') as HTMLInputElement).value,
    }));
}

describe('Personality Ordering tab', () => {
  it('shows each card with name, badge, description, date "MMM d, yyyy HH:mm", creator and order from 1', async () => {
    open();
    expect(await cards()).toEqual([
      { name: 'Charlie', order: '1' },
      { name: 'alice', order: '2' },
      { name: 'Bob', order: '3' },
    ]);
    const first = screen.getAllByTestId('ordering-card')[0]!;
    expect(first).toHaveTextContent('public');
    expect(first).toHaveTextContent('Third');
    const created = new Date(charlie.createdAt);
    const month = created.toLocaleString('en-US', { month: 'short' });
    const hh = String(created.getHours()).padStart(2, '0');
    const mm = String(created.getMinutes()).padStart(2, '0');
    expect(first).toHaveTextContent(`Created ${month} ${created.getDate()}, ${created.getFullYear()} ${hh}:${mm}`);
    expect(first).toHaveTextContent('c@example.com');
    expect(within(first).getByRole('button', { name: 'Drag Charlie' })).toBeInTheDocument();
    expect(within(first).getByRole('spinbutton', { name: 'Order for Charlie' })).toHaveAttribute('min', '1');
    expect(screen.getByText(/order everyone browsing public personalities sees/)).toBeInTheDocument();
  });

  it('"A-Z Order" and "Creation Date" (oldest first) sort and renumber from 1', async () => {
    const { user } = open();
    await cards();
    await user.click(screen.getByRole('button', { name: 'A-Z Order' }));
    expect(await cards()).toEqual([
      { name: 'alice', order: '1' },
      { name: 'Bob', order: '2' },
      { name: 'Charlie', order: '3' },
    ]);
    await user.click(screen.getByRole('button', { name: 'Creation Date' }));
    expect(await cards()).toEqual([
      { name: 'Bob', order: '1' },
      { name: 'Charlie', order: '2' },
      { name: 'alice', order: '3' },
    ]);
  });

  it('a non-numeric order becomes 0, and "Save Order" sends every value in one request', async () => {
    const { api, user } = open();
    await cards();
    const input = screen.getByRole('spinbutton', { name: 'Order for alice' });
    await user.clear(input);
    expect(input).toHaveValue(0);
    await user.type(input, '7');
    expect(input).toHaveValue(7);
    await user.clear(screen.getByRole('spinbutton', { name: 'Order for Bob' }));
    await user.click(screen.getByRole('button', { name: 'Save Order' }));
    expect(await screen.findByText('Personality order updated successfully')).toBeInTheDocument();
    const saves = api.callsTo('PUT', '/api/admin/personalities/order');
    expect(saves).toHaveLength(1);
    expect(saves[0]!.body).toEqual({
      updates: [
        { id: charlie.id, displayOrder: 1 },
        { id: alice.id, displayOrder: 7 },
        { id: bob.id, displayOrder: 0 },
      ],
    });
  });

  it('"Reset" reloads from the server, dropping local changes', async () => {
    const { api, user } = open();
    await cards();
    await user.click(screen.getByRole('button', { name: 'A-Z Order' }));
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect((await cards()).map((c) => c.name)).toEqual(['Charlie', 'alice', 'Bob']);
    expect(screen.queryByText('Unsaved changes')).toBeNull();
    expect(api.callsTo('GET', '/api/admin/personalities/ordering')).toHaveLength(2);
  });

  it('reports a failed save', async () => {
    const { user } = open({
      publicPersonalities: [charlie],
      override: (c) => (c.method === 'PUT' ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined),
    });
    await cards();
    await user.click(screen.getByRole('button', { name: 'Save Order' }));
    expect(await screen.findByText('Failed to save personality order')).toBeInTheDocument();
  });

  it('says "Failed to load personalities" when the list cannot be loaded', async () => {
    open({ override: (c) => (c.path.endsWith('/ordering') ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined) });
    expect(await screen.findByText('Failed to load personalities')).toBeInTheDocument();
  });

  it('moves a dragged card 25 px per arrow key press', () => {
    const at = { x: 100, y: 200 };
    const press = (code: string) =>
      keyboardCoordinates(new KeyboardEvent('keydown', { code }), { currentCoordinates: at, active: 'x', context: {} as never });
    expect(KEYBOARD_STEP_PX).toBe(25);
    expect(press('ArrowDown')).toEqual({ x: 100, y: 225 });
    expect(press('ArrowUp')).toEqual({ x: 100, y: 175 });
    expect(press('ArrowRight')).toEqual({ x: 125, y: 200 });
    expect(press('ArrowLeft')).toEqual({ x: 75, y: 200 });
    expect(press('KeyA')).toBeUndefined();
  });
});
