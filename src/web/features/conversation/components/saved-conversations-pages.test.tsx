// A person with many saved conversations gets the 50 most recently active in the picker, with
// "Show older conversations" to reach the rest; the open one is named even when it is older.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { personality, personalityId, savedConversation, stubConversationApi, type ConversationStubOptions } from '../test-support/conversation-api-stub';
import { activeConversationKey } from '../utils/chat-storage';
import { ConversationView } from './conversation-view';

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

/** 60 conversations, most recently active first ("Conversation 1" is the latest). */
const many = Array.from({ length: 60 }, (_, i) =>
  savedConversation({ id: `0b9f7c4e-1111-4222-8333-${String(i + 1).padStart(12, '0')}`, title: `Conversation ${i + 1}` }),
);

function render(options: ConversationStubOptions = {}) {
  const api = stubConversationApi({ user: ada, conversations: many, ...options });
  const view = renderApp(<ConversationView personality={personality} initialMode="text" onBack={() => {}} />);
  return { api, view, user: userEvent.setup() };
}

const picker = () => screen.getByRole('combobox', { name: 'Saved conversations' });
const listCalls = (api: ReturnType<typeof stubConversationApi>) => api.callsTo('GET', `${api.base}/conversations`);

async function openPicker(user: ReturnType<typeof userEvent.setup>) {
  await waitFor(() => expect(picker()).toHaveTextContent('New conversation (not saved yet)'));
  await user.click(picker());
  return within(await screen.findByRole('listbox'));
}

describe('the saved conversations picker, a page at a time', () => {
  it('lists the 50 most recent and "Show older conversations"; choosing it shows all 60 and keeps the list open', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { api, user } = render({
      // Holds the second page back, to see what the list says meanwhile.
      override: (call) => (call.method === 'GET' && call.path.endsWith('/conversations') && call.query.get('offset') === '50' ? (gate.then(() => undefined) as never) : undefined),
    });
    const list = await openPicker(user);
    const options = list.getAllByRole('option');
    expect(options).toHaveLength(51);
    expect(options[0]).toHaveTextContent('Conversation 1');
    expect(options[49]).toHaveTextContent('Conversation 50');
    expect(options[50]).toHaveTextContent('Show older conversations');
    expect(listCalls(api).map((c) => [c.query.get('limit'), c.query.get('offset')])).toEqual([['50', '0']]);

    await user.click(list.getByRole('option', { name: 'Show older conversations' }));
    expect(await list.findByRole('option', { name: 'Loading older conversations...' })).toBeInTheDocument();
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    act(() => release());

    await waitFor(() => expect(screen.getByRole('listbox').querySelectorAll('[role="option"]')).toHaveLength(60));
    const all = within(screen.getByRole('listbox'));
    expect(all.queryByRole('option', { name: /older conversations/ })).toBeNull();
    expect(all.getAllByRole('option').map((o) => o.textContent)).toEqual(many.map((c) => c.title));
    // Focus carries on at the first older conversation, so the keyboard continues from there.
    await waitFor(() => expect(all.getByRole('option', { name: 'Conversation 51' })).toHaveFocus());
    expect(listCalls(api).map((c) => c.query.get('offset'))).toEqual(['0', '50']);

    // An older one can be opened like any other.
    await user.click(all.getByRole('option', { name: 'Conversation 57' }));
    await waitFor(() => expect(picker()).toHaveTextContent('Conversation 57'));
    expect(sessionStorage.getItem(activeConversationKey(ada.id, personalityId))).toBe(many[56]!.id);
  });

  it('reaches "Show older conversations" from the keyboard, and focus goes to the first older one', async () => {
    const { user } = render();
    await waitFor(() => expect(picker()).toHaveTextContent('New conversation (not saved yet)'));
    picker().focus();
    await user.keyboard('{Enter}');
    const list = within(await screen.findByRole('listbox'));
    await user.keyboard('{End}');
    await waitFor(() => expect(list.getByRole('option', { name: 'Show older conversations' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(screen.getByRole('listbox')).getByRole('option', { name: 'Conversation 51' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(within(screen.getByRole('listbox')).getByRole('option', { name: 'Conversation 52' })).toHaveFocus());
  });

  it('names the open conversation in the picker when it is older than the pages loaded, without asking for it twice', async () => {
    const older = many[54]!;
    sessionStorage.setItem(activeConversationKey(ada.id, personalityId), older.id);
    const { api, user } = render();
    await waitFor(() => expect(picker()).toHaveTextContent('Conversation 55'));
    expect(listCalls(api)).toHaveLength(1);
    expect(api.callsTo('GET', `/api/conversations/${older.id}`)).toHaveLength(1);
    // It can be renamed like one in the list.
    expect(screen.getByRole('button', { name: 'Rename conversation' })).toBeEnabled();

    await user.click(picker());
    const list = within(await screen.findByRole('listbox'));
    expect(list.getAllByRole('option')).toHaveLength(52);
    expect(list.getByRole('option', { name: 'Conversation 55' })).toHaveAttribute('data-state', 'checked');
    // Once its page is loaded, it is listed once, in its place.
    await user.click(list.getByRole('option', { name: 'Show older conversations' }));
    await waitFor(() => expect(within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(many.map((c) => c.title)));
    expect(api.callsTo('GET', `/api/conversations/${older.id}`)).toHaveLength(1);
  });

  it('a person with 50 or fewer gets no "Show older conversations"', async () => {
    const { user } = render({ conversations: many.slice(0, 50) });
    const list = await openPicker(user);
    expect(list.getAllByRole('option')).toHaveLength(50);
    expect(list.queryByRole('option', { name: 'Show older conversations' })).toBeNull();
  });
});
