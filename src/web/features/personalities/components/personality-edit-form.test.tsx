// Two tabs editing one personality: a save sends only what this form changed, with the version it
// started from; a save refused because the personality changed elsewhere shows why, and the form
// then shows the other change beside this one's edits, so saving again keeps both.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { PersonalitiesDashboard } from './personalities-dashboard';
import { ada, makePersonality, renderWithApp, stubApi } from '../test-support/personalities-api-stub';

afterEach(() => vi.unstubAllGlobals());

describe('a blank name is not saved', () => {
  it('ignores a save whose name is only invisible characters (as a blank one), and saves a visible one', async () => {
    const p = makePersonality({ name: 'Quiet One' });
    const api = stubApi({ viewer: ada, personalities: [p] });
    renderWithApp(<PersonalitiesDashboard renderConversation={() => null} onOpenDocuments={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(within(await screen.findByRole('article', { name: 'Quiet One' })).getByRole('button', { name: 'Edit Quiet One' }));
    const form = screen.getByRole('form', { name: 'Edit Quiet One' });
    const name = within(form).getByLabelText('Name');
    for (const invisible of ['   ', '\u200B', '\u200F\u200D', '\u0301']) {
      await user.clear(name);
      await user.type(name, invisible);
      await user.click(within(form).getByRole('button', { name: 'Save' }));
    }
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    expect(screen.getByRole('form', { name: 'Edit Quiet One' })).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'می\u200Cخواهم');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.personality.updated)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH')[0]!.body).toMatchObject({ name: 'می\u200Cخواهم' });
  });
});

describe('editing a personality another tab edits too', () => {
  it("keeps the other tab's change and this form's edit", async () => {
    const p = makePersonality({ name: 'Twin Tabs', description: 'Original description', updatedAt: '2026-11-27T10:00:00.000Z' });
    const api = stubApi({
      viewer: ada,
      personalities: [p],
      // The server's rule: a save from an older version is refused.
      override: (call) => {
        const current = api.store[0]!;
        if (call.method === 'PATCH' && (call.body as { expectedUpdatedAt?: string } | undefined)?.expectedUpdatedAt !== current.updatedAt) {
          return { status: 409, body: { error: { code: 'CONFLICT', message: messages.personality.changedElsewhere } } };
        }
        return undefined;
      },
    });
    renderWithApp(<PersonalitiesDashboard renderConversation={() => null} onOpenDocuments={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(within(await screen.findByRole('article', { name: 'Twin Tabs' })).getByRole('button', { name: 'Edit Twin Tabs' }));
    const form = screen.getByRole('form', { name: 'Edit Twin Tabs' });
    await user.type(within(form).getByLabelText('Behavior instructions'), 'Speak slowly.');

    // Meanwhile another tab saved a new description.
    api.store[0] = { ...api.store[0]!, description: 'Edited in the other tab', updatedAt: '2026-11-27T10:05:00.000Z' };

    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.personality.changedElsewhere)).toBeInTheDocument();
    const first = api.calls.filter((c) => c.method === 'PATCH')[0]!;
    // Only what this form changed, with the version it started from.
    expect(first.body).toEqual({ behaviorInstructions: 'Speak slowly.', expectedUpdatedAt: '2026-11-27T10:00:00.000Z' });
    // The list was read again: the other tab's description shows, this form's edit is kept.
    await waitFor(() => expect(within(form).getByLabelText('Description')).toHaveValue('Edited in the other tab'));
    expect(within(form).getByLabelText('Behavior instructions')).toHaveValue('Speak slowly.');

    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.personality.updated)).toBeInTheDocument();
    const second = api.calls.filter((c) => c.method === 'PATCH')[1]!;
    expect(second.body).toEqual({ behaviorInstructions: 'Speak slowly.', expectedUpdatedAt: '2026-11-27T10:05:00.000Z' });
  });
});
