// Conversations are remembered: a signed-in person's on the server (resumed after a reload, picked
// from the list on another device, renamed, deleted), an anonymous visitor's in the tab.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import {
  GREETING,
  personality,
  personalityId,
  replyEvents,
  savedConversation,
  stubConversationApi,
  type ConversationStubOptions,
} from '../test-support/conversation-api-stub';
import { activeConversationKey, transcriptKey } from '../utils/chat-storage';
import { ConversationView } from './conversation-view';

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

function render(options: ConversationStubOptions = {}) {
  const api = stubConversationApi(options);
  const view = renderApp(<ConversationView personality={personality} initialMode="text" onBack={() => {}} />);
  return { api, view, user: userEvent.setup() };
}

const log = () => screen.getByRole('log', { name: 'Conversation with Ada Lovelace' });
const box = () => screen.findByRole('textbox', { name: 'Message to Ada Lovelace' });
const activeKey = activeConversationKey(ada.id, personalityId);

describe('saved conversations (signed in)', () => {
  it('a new conversation takes the id the server saved it under, remembers it for a reload, and continues it', async () => {
    const id = '5e0c1f00-aaaa-4bbb-8ccc-000000000001';
    const { api, user } = render({ user: ada, chat: (s) => (replyEvents('Hello to you.', [], { conversationId: id }).forEach((e) => s.push(e)), s.end()) });
    await user.type(await box(), 'Hello{Enter}');
    await within(log()).findByText('Hello to you.');
    expect(sessionStorage.getItem(activeKey)).toBe(id);
    // History lives on the server: the page never sends its own.
    expect(api.chatCalls()[0]!.body).toEqual({ message: 'Hello' });
    await user.type(await box(), 'Again{Enter}');
    await waitFor(() => expect(api.chatCalls()).toHaveLength(2));
    expect(api.chatCalls()[1]!.body).toEqual({ message: 'Again', conversationId: id });
    // The list is refreshed after each exchange, so the new conversation appears in it.
    await waitFor(() => expect(api.callsTo('GET', `${api.base}/conversations`).length).toBeGreaterThanOrEqual(2));
  });

  it('after a reload, resumes the conversation that was open, from the server', async () => {
    const saved = savedConversation();
    sessionStorage.setItem(activeKey, saved.id);
    const { api } = render({ user: ada, conversations: [saved] });
    expect(await within(await screen.findByRole('log')).findByText('What did the engine weave?')).toBeInTheDocument();
    expect(within(log()).getByText('Algebraic patterns, like the Jacquard loom.')).toBeInTheDocument();
    expect(within(log()).getAllByText(GREETING)).toHaveLength(1);
    expect(within(log()).getByRole('list', { name: 'Document references' })).toHaveTextContent('engine-notes.txt (chunk 2)87% match');
    expect(api.callsTo('GET', `/api/conversations/${saved.id}`)).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Saved conversations' })).toHaveTextContent('The Analytical Engine'));
  });

  it('picks a saved conversation from the list (another device) and continues it', async () => {
    const saved = savedConversation();
    const { api, user } = render({ user: ada, conversations: [saved] });
    await box();
    await user.click(screen.getByRole('combobox', { name: 'Saved conversations' }));
    await user.click(await screen.findByRole('option', { name: 'The Analytical Engine' }));
    expect(await within(log()).findByText('Algebraic patterns, like the Jacquard loom.')).toBeInTheDocument();
    expect(sessionStorage.getItem(activeKey)).toBe(saved.id);
    await user.type(await box(), 'Tell me more{Enter}');
    await waitFor(() => expect(api.chatCalls()).toHaveLength(1));
    expect(api.chatCalls()[0]!.body).toEqual({ message: 'Tell me more', conversationId: saved.id });
  });

  it('renames the open conversation; a blank title is refused before sending', async () => {
    const saved = savedConversation();
    sessionStorage.setItem(activeKey, saved.id);
    const { api, user } = render({ user: ada, conversations: [saved] });
    await within(await screen.findByRole('log')).findByText('What did the engine weave?');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Rename conversation' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Rename conversation' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename conversation' }));
    const title = dialog.getByLabelText('Title');
    expect(title).toHaveValue('The Analytical Engine');
    await user.clear(title);
    await user.type(title, '   {Enter}');
    expect(dialog.getByRole('alert')).toHaveTextContent('Please enter a title');
    expect(api.callsTo('PATCH', `/api/conversations/${saved.id}`)).toHaveLength(0);
    // Invisible characters only are no title either.
    await user.clear(title);
    await user.type(title, '\u200B\u200F{Enter}');
    expect(dialog.getByRole('alert')).toHaveTextContent('Please enter a title');
    expect(api.callsTo('PATCH', `/api/conversations/${saved.id}`)).toHaveLength(0);
    await user.clear(title);
    await user.type(title, '  Looms and engines {Enter}');
    expect(await screen.findByText('Conversation renamed')).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/api/conversations/${saved.id}`).map((c) => c.body)).toEqual([{ title: 'Looms and engines' }]);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Saved conversations' })).toHaveTextContent('Looms and engines'));
  });

  it('deletes the open conversation after confirmation and starts a new one', async () => {
    const saved = savedConversation();
    sessionStorage.setItem(activeKey, saved.id);
    const { api, user } = render({ user: ada, conversations: [saved] });
    await within(await screen.findByRole('log')).findByText('What did the engine weave?');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete conversation' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Delete conversation' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete this conversation?' }));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Conversation deleted')).toBeInTheDocument();
    expect(api.callsTo('DELETE', `/api/conversations/${saved.id}`)).toHaveLength(1);
    await waitFor(() => expect(within(log()).queryByText('What did the engine weave?')).toBeNull());
    expect(within(log()).getByText(GREETING)).toBeInTheDocument();
    expect(sessionStorage.getItem(activeKey)).toBeNull();
    // Its Delete button is disabled now; none is left, so focus goes to "New conversation".
    await waitFor(() => expect(screen.getByRole('button', { name: 'New conversation' })).toHaveFocus());
  });

  it('after deleting one of several, focus goes to the saved conversations list', async () => {
    const saved = savedConversation();
    const other = savedConversation({ id: '0b9f7c4e-2222-4222-8333-444455556666', title: 'Poetical science' });
    sessionStorage.setItem(activeKey, saved.id);
    const { user } = render({ user: ada, conversations: [saved, other] });
    await within(await screen.findByRole('log')).findByText('What did the engine weave?');
    const remove = screen.getByRole('button', { name: 'Delete conversation' });
    await waitFor(() => expect(remove).toBeEnabled());
    remove.focus();
    await user.keyboard('{Enter}');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Conversation deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Saved conversations' })).toHaveFocus());
    expect(remove).toBeDisabled();
  });

  it('a remembered conversation deleted elsewhere gives way to a new one', async () => {
    sessionStorage.setItem(activeKey, '0b9f7c4e-9999-4222-8333-444455556666');
    render({ user: ada });
    expect(await within(await screen.findByRole('log')).findByText(GREETING)).toBeInTheDocument();
    await waitFor(() => expect(sessionStorage.getItem(activeKey)).toBeNull());
  });
});

describe('anonymous visitors', () => {
  it('keep their conversation through a reload of the tab, and "New conversation" clears it', async () => {
    const first = render();
    await first.user.type(await box(), 'Hello{Enter}');
    await within(log()).findByText('You asked: Hello');
    expect(first.api.callsTo('GET', `${first.api.base}/conversations`)).toHaveLength(0);
    expect(JSON.parse(sessionStorage.getItem(transcriptKey(personalityId))!)).toHaveLength(2);
    first.view.unmount();
    vi.unstubAllGlobals();

    const second = render();
    expect(await within(await screen.findByRole('log')).findByText('You asked: Hello')).toBeInTheDocument();
    expect(within(log()).getByText('Hello')).toBeInTheDocument();
    // The restored exchange goes back as history with the next message.
    await second.user.type(await box(), 'More{Enter}');
    await waitFor(() => expect(second.api.chatCalls()).toHaveLength(1));
    expect(second.api.chatCalls()[0]!.body).toEqual({
      message: 'More',
      conversationHistory: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'You asked: Hello' },
      ],
    });
    await within(log()).findByText('You asked: More');

    await second.user.click(screen.getByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(within(log()).queryByText('You asked: Hello')).toBeNull());
    expect(within(log()).getByText(GREETING)).toBeInTheDocument();
    expect(sessionStorage.getItem(transcriptKey(personalityId))).toBeNull();
  });
});
