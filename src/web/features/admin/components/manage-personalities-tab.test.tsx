import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { makeAdminPersonality, stubAdminApi, type AdminStubOptions } from '../test-support/admin-api-stub';
import { ManagePersonalitiesTab } from './manage-personalities-tab';

afterEach(() => vi.unstubAllGlobals());

function open(options: AdminStubOptions) {
  const api = stubAdminApi(options);
  renderApp(<ManagePersonalitiesTab />);
  return { api, user: userEvent.setup() };
}

describe('Manage Personalities tab', () => {
  it('lists public personalities, most recently updated first, with avatar, creator and Public badge', async () => {
    open({
      publicPersonalities: [
        makeAdminPersonality({ name: 'older', updatedAt: '2025-01-01T00:00:00.000Z', creatorEmail: 'Unknown' }),
        makeAdminPersonality({ name: 'Newer', description: 'Fresh', updatedAt: '2025-06-01T00:00:00.000Z' }),
      ],
    });
    const rows = within(await screen.findByRole('list', { name: 'Public personalities' })).getAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['Newer', 'older']);
    expect(rows[0]).toHaveTextContent('N');
    expect(within(rows[0]!).getByText('Fresh')).toHaveClass('line-clamp-2');
    expect(within(rows[0]!).getByText('Public')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent(/updated .* ago/);
    expect(within(rows[1]!).getByText('O')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Unknown')).toBeInTheDocument();
  });

  it("shows a personality's picture (a PNG character card's) instead of the initial letter", async () => {
    const pictured = makeAdminPersonality({ name: 'Pictured', hasAvatar: true, updatedAt: '2025-06-01T00:00:00.000Z' });
    open({ publicPersonalities: [pictured, makeAdminPersonality({ name: 'Plain', updatedAt: '2025-01-01T00:00:00.000Z' })] });
    const rows = within(await screen.findByRole('list', { name: 'Public personalities' })).getAllByRole('listitem');
    expect(within(rows[0]!).getByTestId('admin-personality-avatar')).toHaveAttribute('src', `/api/personalities/${pictured.id}/avatar?v=2025-06-01T00%3A00%3A00.000Z`);
    expect(within(rows[1]!).queryByTestId('admin-personality-avatar')).toBeNull();
    expect(within(rows[1]!).getByText('P')).toBeInTheDocument();
  });

  it('asks "Revert to Private" with the spec text, then reverts', async () => {
    const p = makeAdminPersonality({ name: 'Marie Curie' });
    const { api, user } = open({ publicPersonalities: [p] });
    await user.click(await screen.findByRole('button', { name: 'Make Private: Marie Curie' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revert to Private' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to make "Marie Curie" private? This will remove it from public access and only the creator will be able to access it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', `/api/admin/personalities/${p.id}/revert`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Make Private: Marie Curie' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Make Private' }));
    expect(await screen.findByText('"Marie Curie" has been reverted to private')).toBeInTheDocument();
    expect(api.callsTo('POST', `/api/admin/personalities/${p.id}/revert`)).toHaveLength(1);
    expect(await screen.findByText('No public personalities found')).toBeInTheDocument();
  });

  it('reports a failed revert', async () => {
    const p = makeAdminPersonality({ name: 'Marie Curie' });
    const { user } = open({
      publicPersonalities: [p],
      override: (c) => (c.method === 'POST' ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined),
    });
    await user.click(await screen.findByRole('button', { name: 'Make Private: Marie Curie' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Make Private' }));
    expect(await screen.findByText('Failed to revert personality to private')).toBeInTheDocument();
  });

  it('says "Failed to load public personalities" when the list cannot be loaded', async () => {
    open({ override: (c) => (c.path === '/api/admin/personalities/public' ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined) });
    expect(await screen.findByText('Failed to load public personalities')).toBeInTheDocument();
  });
});
