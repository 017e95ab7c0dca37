// Two tabs editing one personality: a save sends only what this form changed, with those fields'
// values as it opened them; a change elsewhere to another field does not stop it. A save refused
// because the same field changed elsewhere shows why, and the form then shows the other changes
// beside this one's edits, so saving again is an informed choice.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { editableFieldsOf, fieldsChangedSince, type EditableFields } from '../../../../shared/personality-edit';
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
    const form = await screen.findByRole('form', { name: 'Edit Quiet One' });
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
  // The server's rule (shared/personality-edit.ts): a save is refused only when a field it changes
  // no longer has the value the form opened with.
  function refuseStaleFields(api: ReturnType<typeof stubApi>) {
    return (call: { method: string; body?: unknown }) => {
      const expected = (call.body as { expected?: Partial<EditableFields> } | undefined)?.expected;
      if (call.method === 'PATCH' && expected && fieldsChangedSince(expected, editableFieldsOf(api.store[0]!)).length > 0) {
        return { status: 409, body: { error: { code: 'CONFLICT', message: messages.personality.changedElsewhere } } };
      }
      return undefined;
    };
  }

  it("saves at once when the other tab changed another field (or only the sharing), and both changes stand", async () => {
    const p = makePersonality({ name: 'Twin Tabs', description: 'Original description', updatedAt: '2026-11-27T10:00:00.000Z' });
    const api: ReturnType<typeof stubApi> = stubApi({ viewer: ada, personalities: [p], override: (call) => refuseStaleFields(api)(call) });
    renderWithApp(<PersonalitiesDashboard renderConversation={() => null} onOpenDocuments={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(within(await screen.findByRole('article', { name: 'Twin Tabs' })).getByRole('button', { name: 'Edit Twin Tabs' }));
    const form = await screen.findByRole('form', { name: 'Edit Twin Tabs' });
    await user.type(within(form).getByLabelText('Behavior instructions'), 'Speak slowly.');

    // Meanwhile another tab saved a new description and shared the personality.
    api.store[0] = { ...api.store[0]!, description: 'Edited in the other tab', sharingType: 'shared', updatedAt: '2026-11-27T10:05:00.000Z' };

    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.personality.updated)).toBeInTheDocument();
    const patches = api.calls.filter((c) => c.method === 'PATCH');
    expect(patches).toHaveLength(1);
    // Only what this form changed, with its value as the form opened it.
    expect(patches[0]!.body).toEqual({ behaviorInstructions: 'Speak slowly.', expected: { behaviorInstructions: '' } });
    expect(api.store[0]).toMatchObject({ description: 'Edited in the other tab', behaviorInstructions: 'Speak slowly.', sharingType: 'shared' });
  });

  it("is refused when the other tab changed the same field; the form then shows the other tab's changes with this one's edit kept", async () => {
    const p = makePersonality({ name: 'Twin Tabs', description: 'Original description', updatedAt: '2026-11-27T10:00:00.000Z' });
    const api: ReturnType<typeof stubApi> = stubApi({ viewer: ada, personalities: [p], override: (call) => refuseStaleFields(api)(call) });
    renderWithApp(<PersonalitiesDashboard renderConversation={() => null} onOpenDocuments={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(within(await screen.findByRole('article', { name: 'Twin Tabs' })).getByRole('button', { name: 'Edit Twin Tabs' }));
    const form = await screen.findByRole('form', { name: 'Edit Twin Tabs' });
    await user.clear(within(form).getByLabelText('Description'));
    await user.type(within(form).getByLabelText('Description'), 'Mine');

    // Meanwhile another tab saved its own description and a greeting.
    api.store[0] = { ...api.store[0]!, description: 'Theirs', greeting: 'Hello from the other tab', updatedAt: '2026-11-27T10:05:00.000Z' };

    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.personality.changedElsewhere)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH')[0]!.body).toEqual({ description: 'Mine', expected: { description: 'Original description' } });
    expect(api.store[0]).toMatchObject({ description: 'Theirs' });
    // The list was read again: the other tab's greeting shows, this form's description is kept.
    await waitFor(() => expect(within(form).getByLabelText('Greeting')).toHaveValue('Hello from the other tab'));
    expect(within(form).getByLabelText('Description')).toHaveValue('Mine');

    // Saving again is a choice made knowing the other change: it expects "Theirs" and replaces it.
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.personality.updated)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PATCH')[1]!.body).toEqual({ description: 'Mine', expected: { description: 'Theirs' } });
    expect(api.store[0]).toMatchObject({ description: 'Mine', greeting: 'Hello from the other tab' });
  });
});
