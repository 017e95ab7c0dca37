// The text chat as a person uses it: the message box rules, the reply streaming in, Stop, the
// references, the offline label and what a failure looks like. The API is faked at fetch, with
// the chat route answering a real event stream (see conversation-api-stub.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { renderApp } from '../../../test-support/render-app';
import {
  GREETING,
  STARTERS,
  personality,
  ref,
  replyEvents,
  stubConversationApi,
  type ChatStream,
  type ConversationStubOptions,
} from '../test-support/conversation-api-stub';
import { ConversationView } from './conversation-view';

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Moves the clock past Stop's guard against a click meant for Send (message-composer.tsx). */
const later = () => {
  const now = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => now() + 1000);
};

async function openChat(options: ConversationStubOptions = {}) {
  const api = stubConversationApi(options);
  const onOpenSource = vi.fn();
  const view = renderApp(<ConversationView personality={personality} initialMode="text" onBack={() => {}} onOpenSource={onOpenSource} />);
  const user = userEvent.setup();
  const box = await screen.findByRole('textbox', { name: 'Message to Ada Lovelace' });
  await screen.findByText(GREETING);
  return { api, user, box, onOpenSource, view };
}

/** A chat route that hands each request's stream to the test, to drive event by event. */
function heldStreams() {
  const held: ChatStream[] = [];
  return { held, chat: (s: ChatStream) => void held.push(s) };
}

const log = () => screen.getByRole('log', { name: 'Conversation with Ada Lovelace' });
const sendButton = () => screen.queryByRole('button', { name: 'Send Message' });
const previewButton = () => screen.getByRole('button', { name: 'Preview' });

describe('conversation screen', () => {
  it('has the title, the Text Chat tab, the greeting, four starters and the offline notice', async () => {
    await openChat();
    // The screen's title is its one h1.
    expect(screen.getByRole('heading', { level: 1, name: 'Conversation with Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('tab', { name: 'Text Chat' })).toHaveAttribute('aria-selected', 'true');
    expect(within(log()).getByText(GREETING)).toBeInTheDocument();
    const starters = within(screen.getByRole('list', { name: 'Conversation starters' })).getAllByRole('button');
    expect(starters.map((b) => b.textContent)).toEqual(STARTERS);
    expect(screen.getByTestId('offline-notice')).toHaveTextContent(messages.chat.offlineModeLabel);
  });

  it('lets right-to-left text run its own way: the name is isolated in the title, the message box follows what is typed', async () => {
    const { box } = await openChat();
    expect(screen.getByRole('heading', { level: 1 }).querySelector('bdi')).toHaveTextContent('Ada Lovelace');
    expect(box).toHaveAttribute('dir', 'auto');
  });
});

describe('message box', () => {
  it('can neither send nor preview an empty or blank message', async () => {
    const { api, user, box } = await openChat();
    expect(sendButton()).toBeDisabled();
    expect(previewButton()).toBeDisabled();
    await user.type(box, '   {Shift>}{Enter}{/Shift}  ');
    expect(box).toHaveValue('   \n  ');
    expect(sendButton()).toBeDisabled();
    expect(previewButton()).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(api.chatCalls()).toHaveLength(0);
    expect(api.callsTo('POST', `${api.base}/chat/preview`)).toHaveLength(0);
    await user.type(box, 'x');
    expect(sendButton()).toBeEnabled();
    expect(previewButton()).toBeEnabled();
  });

  it('can neither send nor preview a message of invisible characters only; an emoji is a message', async () => {
    const { api, user, box } = await openChat();
    for (const invisible of ['\u200B', '\u200D\u200F\uFEFF', ' \u0301 ']) {
      await user.clear(box);
      await user.type(box, invisible);
      expect(sendButton()).toBeDisabled();
      expect(previewButton()).toBeDisabled();
      await user.type(box, '{Enter}');
    }
    expect(api.chatCalls()).toHaveLength(0);
    expect(api.callsTo('POST', `${api.base}/chat/preview`)).toHaveLength(0);
    await user.clear(box);
    await user.type(box, '👩‍👩‍👧');
    expect(sendButton()).toBeEnabled();
    expect(previewButton()).toBeEnabled();
  });

  it('Shift+Enter adds a line; Enter sends the trimmed message and empties the box', async () => {
    const { api, user, box } = await openChat();
    await user.type(box, '  Hello{Shift>}{Enter}{/Shift}world  ');
    expect(box).toHaveValue('  Hello\nworld  ');
    expect(api.chatCalls()).toHaveLength(0);
    await user.type(box, '{Enter}');
    await waitFor(() => expect(api.chatCalls()).toHaveLength(1));
    expect(api.chatCalls()[0]!.body).toEqual({ message: 'Hello\nworld', conversationHistory: [] });
    expect(box).toHaveValue('');
    await waitFor(() => expect(within(log()).getAllByRole('listitem')).toHaveLength(3));
    const [, question, reply] = within(log()).getAllByRole('listitem');
    // The person's words as typed (the line break kept); the reply renders it as Markdown.
    expect(question!.querySelector('.whitespace-pre-wrap')!.textContent).toBe('You: Hello\nworld');
    // A single newline in the reply is a line break, not a run-on paragraph.
    await waitFor(() => expect(reply!.querySelector('p')!.innerHTML.replace(/\n/g, '')).toBe('You asked: Hello<br>world'));
  });

  it('sends with the Send Message button, and a starter sends itself', async () => {
    const { api, user, box } = await openChat();
    await user.click(screen.getByRole('button', { name: STARTERS[3] }));
    await waitFor(() => expect(api.chatCalls()).toHaveLength(1));
    expect(api.chatCalls()[0]!.body).toMatchObject({ message: STARTERS[3] });
    // Once the conversation has begun, the starters make way for it.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Conversation starters' })).toBeNull());
    await user.type(box, 'Second question');
    await user.click(sendButton()!);
    await waitFor(() => expect(api.chatCalls()).toHaveLength(2));
  });
});

describe('the reply', () => {
  it('streams in word by word; the log is busy and Stop replaces Send until it is done', async () => {
    const { held, chat } = heldStreams();
    const { user, box } = await openChat({ chat });
    await user.type(box, 'What did the engine weave?{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    const stream = held[0]!;
    const [start, ...rest] = replyEvents('The engine weaves algebraic patterns.', [ref()]);
    stream.push(start!);
    expect(await screen.findByText('Ada Lovelace is replying')).toBeInTheDocument();
    stream.push(rest[0]!);
    stream.push(rest[1]!);
    expect(await within(log()).findByText('The engine')).toBeInTheDocument();
    expect(log()).toHaveAttribute('aria-busy', 'true');
    expect(sendButton()).toBeNull();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeEnabled();
    stream.push(rest[2]!);
    expect(await within(log()).findByText('The engine weaves')).toBeInTheDocument();
    for (const e of rest.slice(3)) stream.push(e);
    stream.end();
    expect(await within(log()).findByText('The engine weaves algebraic patterns.')).toBeInTheDocument();
    await waitFor(() => expect(log()).toHaveAttribute('aria-busy', 'false'));
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(sendButton()).toBeInTheDocument();
  });

  it('Stop aborts the request and keeps what was said, marked Stopped; the chat goes on', async () => {
    const { held, chat } = heldStreams();
    const { api, user, box } = await openChat({ chat });
    await user.type(box, 'Tell me everything{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    const [start, w1, w2] = replyEvents('Once upon a time there was an engine.');
    held[0]!.push(start!);
    held[0]!.push(w1!);
    held[0]!.push(w2!);
    await within(log()).findByText('Once upon');
    later();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(held[0]!.signal?.aborted).toBe(true);
    const reply = (await within(log()).findByText('Stopped')).closest('li')!;
    expect(reply).toHaveTextContent('Once upon');
    expect(reply).toHaveAttribute('data-kind', 'stopped');
    expect(sendButton()).toBeInTheDocument();
    expect(screen.queryByText(messages.chat.aiFailed)).toBeNull();

    // The next message carries the stopped reply as history (what the person saw).
    await user.type(box, 'Go on{Enter}');
    await waitFor(() => expect(api.chatCalls()).toHaveLength(2));
    expect(api.chatCalls()[1]!.body).toMatchObject({
      conversationHistory: [
        { role: 'user', content: 'Tell me everything' },
        { role: 'assistant', content: 'Once upon ' },
      ],
    });
  });

  it('Stop by keyboard leaves focus in the message box, and Escape in the box stops a reply too', async () => {
    const { held, chat } = heldStreams();
    const { user, box } = await openChat({ chat });
    await user.type(box, 'Tell me everything{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    const [start, w1] = replyEvents('Once upon a time there was an engine.');
    held[0]!.push(start!);
    held[0]!.push(w1!);
    await within(log()).findByText('Once');
    later();
    const stop = screen.getByRole('button', { name: 'Stop' });
    stop.focus();
    await user.keyboard('{Enter}');
    expect(held[0]!.signal?.aborted).toBe(true);
    await within(log()).findByText('Stopped');
    // Stop is gone; focus did not fall to the page.
    await waitFor(() => expect(box).toHaveFocus());

    await user.type(box, 'Go on{Enter}');
    await waitFor(() => expect(held).toHaveLength(2));
    const [again, word] = replyEvents('And then the engine sang.');
    held[1]!.push(again!);
    held[1]!.push(word!);
    await within(log()).findByText('And');
    expect(box).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(held[1]!.signal?.aborted).toBe(true);
    expect(await within(log()).findAllByText('Stopped')).toHaveLength(2);
  });

  it('Copy reply copies the reply as it reads (a citation without its markers)', async () => {
    const text = 'The engine weaves. [DO_NOT_READ](from engine-notes.txt (chunk 2))[/DO_NOT_READ]';
    const { user, box } = await openChat({ chat: (s) => (replyEvents(text).forEach((e) => s.push(e)), s.end()) });
    // After user-event's setup, which puts a clipboard of its own in place.
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('isSecureContext', true);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.type(box, 'Weave?{Enter}');
    await within(log()).findByText('(from engine-notes.txt (chunk 2))');
    const buttons = await within(log()).findAllByRole('button', { name: 'Copy reply' });
    // The greeting's and the reply's.
    expect(buttons).toHaveLength(2);
    await user.click(buttons[1]!);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('The engine weaves. (from engine-notes.txt (chunk 2))'));
    expect(within(buttons[1]!).getByText('Copied')).toBeInTheDocument();
  });

  it('Stop before the first word leaves an empty reply marked Stopped, not an unanswered question', async () => {
    const { held, chat } = heldStreams();
    const { user, box } = await openChat({ chat });
    await user.type(box, 'Hello there{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    later();
    await user.click(await screen.findByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(screen.queryByText('Ada Lovelace is replying')).toBeNull());
    const items = within(log()).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-sender'))).toEqual(['personality', 'user', 'personality']);
    expect(items[2]).toHaveAttribute('data-kind', 'stopped');
    expect(items[2]).toHaveTextContent('Stopped');
    expect(within(items[2]!).queryByRole('button', { name: /Report/ })).toBeNull();
  });

  it('lists the passages it drew on as "{file} (chunk N)" with % match; choosing one opens the source', async () => {
    const refs = [ref(), ref({ fileName: 'letters.txt (chunk 1)', similarity: 0.4149, documentId: 'doc-2', chunkIndex: 0 })];
    const { user, box, onOpenSource } = await openChat({ chat: (s) => (replyEvents('Patterns.', refs).forEach((e) => s.push(e)), s.end()) });
    await user.type(box, 'Weave?{Enter}');
    const list = await screen.findByRole('list', { name: 'Document references' });
    const buttons = within(list).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['engine-notes.txt (chunk 2)87% match', 'letters.txt (chunk 1)41% match']);
    await user.click(buttons[1]!);
    expect(onOpenSource).toHaveBeenCalledWith({ documentId: 'doc-2', chunkIndex: 0 });
  });

  it('labels replies from the offline responder, and only those', async () => {
    const modes: ('offline' | 'model')[] = ['offline', 'model'];
    const { user, box } = await openChat({
      chat: (s) => (replyEvents(`Reply ${modes[0]}`, [], { mode: modes.shift()! }).forEach((e) => s.push(e)), s.end()),
    });
    await user.type(box, 'One{Enter}');
    const offline = (await within(log()).findByText('Reply offline')).closest('li')!;
    expect(within(offline).getByTestId('responder-mode')).toHaveTextContent('Offline mode');
    expect(within(offline).getByTestId('responder-mode')).toHaveAttribute('title', messages.chat.offlineModeLabel);
    await user.type(box, 'Two{Enter}');
    const model = (await within(log()).findByText('Reply model')).closest('li')!;
    expect(within(model).queryByTestId('responder-mode')).toBeNull();
  });

  it('renders the reply as safe Markdown with DO_NOT_READ in bold', async () => {
    const text = 'Here: <script>alert(1)</script> [x](javascript:alert(1)) ![pic](https://evil.example/p.png)\n\n[DO_NOT_READ](from notes.txt (chunk 1))[/DO_NOT_READ]';
    const { user, box } = await openChat({ chat: (s) => (replyEvents(text).forEach((e) => s.push(e)), s.end()) });
    await user.type(box, 'Hi{Enter}');
    const cite = await within(log()).findByText('(from notes.txt (chunk 1))');
    expect(cite.closest('strong')).not.toBeNull();
    expect(log().querySelector('script, img, a')).toBeNull();
    expect(log()).toHaveTextContent('<script>alert(1)</script>');
    expect(within(log()).getByText('pic')).toBeInTheDocument();
  });
});

describe('when it goes wrong', () => {
  it('a model failure shows the toast and the in-character reply, and the conversation continues', async () => {
    const fallback = messages.chat.fallbackReplies[1];
    let calls = 0;
    const { api, user, box } = await openChat({
      chat: (s) => {
        calls += 1;
        if (calls === 1) {
          s.push(replyEvents('')[0]!);
          s.push({ type: 'error', code: 'MODEL_FAILED', message: messages.chat.aiFailed, fallback, messageId: null });
        } else {
          replyEvents('Back again.').forEach((e) => s.push(e));
        }
        s.end();
      },
    });
    await user.type(box, 'Are you there?{Enter}');
    expect(await screen.findByText(messages.chat.aiFailed)).toBeInTheDocument();
    const reply = within(log()).getByText(fallback).closest('li')!;
    expect(reply).toHaveAttribute('data-kind', 'fallback');
    await user.type(box, 'Try again{Enter}');
    expect(await within(log()).findByText('Back again.')).toBeInTheDocument();
    // The failed exchange's fallback is not sent back to the model as something it said.
    expect(api.chatCalls()[1]!.body).toMatchObject({ conversationHistory: [{ role: 'user', content: 'Are you there?' }] });
  });

  it('a reply that could not be saved still shows, and the person is told it was not kept', async () => {
    const { user, box } = await openChat({
      chat: (s) => {
        const events = replyEvents('Here all the same.');
        events.slice(0, -1).forEach((e) => s.push(e));
        s.push({ type: 'done', messageId: null, content: 'Here all the same.', documentReferences: [], saveFailed: messages.chat.notSaved });
        s.end();
      },
    });
    await user.type(box, 'Will you remember this?{Enter}');
    expect(await screen.findByText(messages.chat.notSaved)).toBeInTheDocument();
    expect(within(log()).getByText('Here all the same.')).toBeInTheDocument();
  });

  it('a stream that ends before its last event counts as a failure, keeping the words that arrived (marked Stopped)', async () => {
    const { user, box } = await openChat({ chat: (s) => (s.push(replyEvents('Half a')[0]!), s.push({ type: 'delta', text: 'Half ' }), s.end()) });
    await user.type(box, 'Hello?{Enter}');
    expect(await screen.findByText(messages.chat.aiFailed)).toBeInTheDocument();
    const last = within(log()).getAllByRole('listitem').at(-1)!;
    expect(last).toHaveAttribute('data-kind', 'stopped');
    expect(last.querySelector('p')!.textContent).toBe('Half');
  });

  it('a stream that ends before any word gives an in-character reply', async () => {
    const { user, box } = await openChat({ chat: (s) => (s.push(replyEvents('Half a')[0]!), s.end()) });
    await user.type(box, 'Hello?{Enter}');
    expect(await screen.findByText(messages.chat.aiFailed)).toBeInTheDocument();
    expect(within(log()).getAllByRole('listitem').at(-1)).toHaveAttribute('data-kind', 'fallback');
  });

  it('a reply the server reports broken off after some words keeps them, marked Stopped', async () => {
    const { user, box } = await openChat({
      chat: (s) => {
        s.push(replyEvents('x')[0]!);
        s.push({ type: 'delta', text: 'Alpha bravo ' });
        s.push({ type: 'error', code: 'MODEL_FAILED', message: messages.chat.aiFailed, fallback: 'Alpha bravo ', partial: true, messageId: null });
        s.end();
      },
    });
    await user.type(box, 'Spell it{Enter}');
    expect(await screen.findByText(messages.chat.aiFailed)).toBeInTheDocument();
    const last = within(log()).getAllByRole('listitem').at(-1)!;
    // Marked Cut off, not Stopped: the person did not stop it.
    expect(last).toHaveAttribute('data-kind', 'cut_off');
    expect(within(last).getByText('Cut off')).toBeInTheDocument();
    expect(within(last).queryByText('Stopped')).toBeNull();
    expect(last.querySelector('p')!.textContent).toBe('Alpha bravo');
  });

  it('a refused message shows the server\'s reason and goes back into the message box', async () => {
    const { user, box } = await openChat({
      chat: () => ({ status: 429, body: { error: { code: 'RATE_LIMITED', message: messages.errors.rateLimited } } }),
    });
    await user.type(box, 'Are you there?{Enter}');
    expect(await screen.findByText(messages.errors.rateLimited)).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('Are you there?'));
    expect(within(log()).getAllByRole('listitem')).toHaveLength(1); // the greeting only
  });
});
