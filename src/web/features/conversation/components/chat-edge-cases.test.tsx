// The conversation screen at the edges a browser reaches (audit K): a double-click on Send, a
// 50,000-character paste, a server that cannot be reached, Safari's IME Enter, a slow saved list,
// and a shared tab after sign-out. The API is faked at fetch, with the chat route answering a
// real event stream (conversation-api-stub.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { GREETING, personality, personalityId, replyEvents, stubConversationApi, type ChatStream, type ConversationStubOptions } from '../test-support/conversation-api-stub';
import { activeConversationKey, transcriptKey } from '../utils/chat-storage';
import { UNREACHABLE } from '../hooks/use-chat-session';
import { ConversationView } from './conversation-view';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openChat(options: ConversationStubOptions = {}) {
  const api = stubConversationApi(options);
  const view = renderApp(<ConversationView personality={personality} initialMode="text" onBack={() => {}} />);
  const user = userEvent.setup();
  const box = await screen.findByRole('textbox', { name: 'Message to Ada Lovelace' });
  await screen.findByText(GREETING);
  return { api, user, box, view };
}

const log = () => screen.getByRole('log', { name: 'Conversation with Ada Lovelace' });
const sendButton = () => screen.queryByRole('button', { name: 'Send Message' });
const stopButton = () => screen.findByRole('button', { name: 'Stop' });
/** Moves the clock past Stop's guard against a click meant for Send. */
const later = () => {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() + 1000);
};

describe('Stop right after Send', () => {
  it('a double-click on Send sends once and does not stop its own reply', async () => {
    const held: ChatStream[] = [];
    const { user, box } = await openChat({ chat: (s) => void held.push(s) });
    await user.type(box, 'Hello there');
    // Send is replaced by Stop under the pointer: the second click of the pair lands on Stop.
    await user.dblClick(sendButton()!);
    await waitFor(() => expect(held).toHaveLength(1));
    await stopButton();
    expect(held[0]!.signal?.aborted).toBe(false);
    replyEvents('Hi.').forEach((e) => held[0]!.push(e));
    held[0]!.end();
    expect(await within(log()).findByText('Hi.')).toBeInTheDocument();
  });

  it('takes a single click on Stop at once, however soon after sending', async () => {
    const held: ChatStream[] = [];
    const { user, box } = await openChat({ chat: (s) => void held.push(s) });
    await user.type(box, 'Hello there{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    await user.click(await stopButton());
    expect(held[0]!.signal?.aborted).toBe(true);
  });

  it('a question stopped before any reply is marked Stopped, not left answerless', async () => {
    const held: ChatStream[] = [];
    const { user, box } = await openChat({ chat: (s) => void held.push(s) });
    await user.type(box, 'Hello there{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]!.push(replyEvents('')[0]!);
    later();
    await user.click(await stopButton());
    await waitFor(() => expect(sendButton()).toBeInTheDocument());
    const items = within(log()).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-sender'))).toEqual(['personality', 'user', 'personality']);
    expect(items[2]).toHaveAttribute('data-kind', 'stopped');
    expect(items[2]).toHaveTextContent('Stopped');
  });

  it('a stop before the server has begun waits for its start, so the saved conversation is not lost', async () => {
    const id = '5e0c1f00-aaaa-4bbb-8ccc-0000000000e1';
    const held: ChatStream[] = [];
    const { api, user, box } = await openChat({ user: ada, chat: (s) => void held.push(s) });
    await user.type(box, 'First question{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    later();
    await user.click(await stopButton());
    // The server has the question already: the page learns which conversation holds it.
    expect(held[0]!.signal?.aborted).toBe(false);
    held[0]!.push(replyEvents('', [], { conversationId: id })[0]!);
    await waitFor(() => expect(held[0]!.signal?.aborted).toBe(true));
    await waitFor(() => expect(sendButton()).toBeInTheDocument());
    expect(sessionStorage.getItem(activeConversationKey(ada.id, personalityId))).toBe(id);
    expect(within(log()).getAllByRole('listitem').at(-1)).toHaveAttribute('data-kind', 'stopped');
    // The next message continues that conversation instead of starting a second one.
    await user.type(box, 'Second question{Enter}');
    await waitFor(() => expect(api.chatCalls()).toHaveLength(2));
    expect(api.chatCalls()[1]!.body).toEqual({ message: 'Second question', conversationId: id });
  });
});

describe('a message over the length limit', () => {
  it('keeps every pasted character, counts them, says the limit and will not send', async () => {
    const { api, user, box } = await openChat();
    const max = limits.chatMessageMax;
    await user.click(box);
    // Well short of the limit: no counter.
    await user.paste('a'.repeat(max - 500));
    expect(screen.queryByText(`${max - 500} / ${max}`)).toBeNull();
    await user.paste('b'.repeat(550));
    expect(box).toHaveValue('a'.repeat(max - 500) + 'b'.repeat(550));
    const counter = screen.getByText(`${max + 50} / ${max}`);
    const reason = screen.getByText(messages.chat.messageTooLong(max));
    const describedBy = box.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy).toContain(counter.id);
    expect(describedBy).toContain(reason.id);
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(sendButton()).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(api.chatCalls()).toHaveLength(0);

    // Short enough again: the reason goes, Send comes back.
    await user.type(box, '{Backspace}'.repeat(50));
    expect(screen.queryByText(messages.chat.messageTooLong(max))).toBeNull();
    expect(sendButton()).toBeEnabled();
    await user.type(box, '{Enter}');
    await waitFor(() => expect(api.chatCalls()).toHaveLength(1));
    expect((api.chatCalls()[0]!.body as { message: string }).message).toHaveLength(max);
  });
});

describe('a server that cannot be reached', () => {
  it('when offline, nothing looks sent: the words go back in the box and the toast says why', async () => {
    const { user, box } = await openChat({
      chat: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await user.type(box, 'Hello?{Enter}');
    expect(await screen.findByText(UNREACHABLE)).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('Hello?'));
    expect(within(log()).getAllByRole('listitem')).toHaveLength(1); // the greeting only
    expect(screen.queryByText(messages.chat.aiFailed)).toBeNull();
  });

  it('a gateway error with no answer from the app is treated the same way', async () => {
    const { user, box } = await openChat({ chat: () => ({ status: 502, body: 'Bad Gateway' }) });
    await user.type(box, 'Hello?{Enter}');
    expect(await screen.findByText(UNREACHABLE)).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('Hello?'));
    expect(within(log()).getAllByRole('listitem')).toHaveLength(1);
  });

  it("the app's own failure before the reply began (its database down) gives its message back, not an AI failure", async () => {
    const { user, box } = await openChat({ chat: () => ({ status: 500, body: { error: { code: 'INTERNAL', message: messages.generic } } }) });
    await user.type(box, 'Hello?{Enter}');
    expect(await screen.findByText(messages.generic)).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('Hello?'));
    expect(within(log()).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByText(messages.chat.aiFailed)).toBeNull();
  });
});

describe('the message box and input methods', () => {
  it('Enter that commits an IME candidate (Safari: keyCode 229) does not send', async () => {
    const { api, user, box } = await openChat();
    await user.type(box, 'にほん');
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    await act(async () => {});
    expect(api.chatCalls()).toHaveLength(0);
    expect(box).toHaveValue('にほん');
  });
});

describe('the saved conversations list', () => {
  it('says it is loading, not that there are none, until the list has arrived', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api = stubConversationApi({
      user: ada,
      override: (call) =>
        call.method === 'GET' && call.path.endsWith('/conversations')
          ? (gate.then(() => ({ status: 200, body: { conversations: [] } })) as never)
          : undefined,
    });
    renderApp(<ConversationView personality={personality} initialMode="text" onBack={() => {}} />);
    const picker = await screen.findByRole('combobox', { name: 'Saved conversations' });
    await waitFor(() => expect(api.callsTo('GET', `${api.base}/conversations`)).toHaveLength(1));
    expect(picker).toHaveTextContent('Loading saved conversations');
    expect(picker).not.toHaveTextContent('No saved conversations yet');
    act(() => release());
    await waitFor(() => expect(picker).toHaveTextContent('No saved conversations yet'));
  });
});

describe('a shared browser tab', () => {
  it('after a sign-out, the next person does not see an earlier anonymous conversation', async () => {
    const earlier = [
      { id: 'u1', sender: 'user', content: 'A private worry', timestamp: '2026-01-01T00:00:00.000Z', kind: 'message', documentReferences: [] },
      { id: 'r1', sender: 'personality', content: 'Tell me more.', timestamp: '2026-01-01T00:00:01.000Z', kind: 'message', documentReferences: [] },
    ];
    sessionStorage.setItem(transcriptKey(personalityId), JSON.stringify(earlier));
    sessionStorage.setItem(transcriptKey('another-personality'), JSON.stringify(earlier));
    const { api, view } = await openChat({ user: ada });
    api.state.user = null;
    await act(() => view.queryClient.invalidateQueries({ queryKey: ['auth'] }));
    await screen.findByText(/Sign in to save your conversations/);
    expect(within(log()).queryByText('A private worry')).toBeNull();
    expect(sessionStorage.getItem(transcriptKey(personalityId))).toBeNull();
    expect(sessionStorage.getItem(transcriptKey('another-personality'))).toBeNull();
  });

  it('a signed-in conversation left open at sign-out is not kept as the next visitor\'s', async () => {
    const { api, user, box, view } = await openChat({ user: ada });
    await user.type(box, 'My own question{Enter}');
    await within(log()).findByText('You asked: My own question');
    api.state.user = null;
    await act(() => view.queryClient.invalidateQueries({ queryKey: ['auth'] }));
    await screen.findByText(/Sign in to save your conversations/);
    expect(within(log()).queryByText('My own question')).toBeNull();
    expect(sessionStorage.getItem(transcriptKey(personalityId))).toBeNull();
  });
});
