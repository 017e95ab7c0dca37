// Sending while the previous reply is still being torn down (open mic's barge-in stops a reply and
// sends the next turn at once): the new message goes out instead of being dropped, and the old
// send's late cleanup leaves the new one streaming.
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StreamChatInput } from '../api/stream-chat';
import { useChatSession } from './use-chat-session';

const calls: StreamChatInput[] = [];
const finishTeardown: (() => void)[] = [];

vi.mock('../api/stream-chat', () => ({
  // Like fetch: an aborted request rejects a little later, when its stream is torn down.
  streamChat: (input: StreamChatInput) => {
    calls.push(input);
    return new Promise<void>((_, reject) => {
      input.signal.addEventListener('abort', () => finishTeardown.push(() => reject(new DOMException('aborted', 'AbortError'))), { once: true });
    });
  },
}));

describe('useChatSession send after stop', () => {
  it('sends the next message while the stopped one is still tearing down, and keeps it streaming', async () => {
    // A conversation already saved: Stop takes effect at once (in a new one it would wait for the
    // server's start, to learn the conversation's id).
    const { result } = renderHook(() => useChatSession({ personalityId: 'p1', signedIn: true, initialMessages: [], initialConversationId: 'c1' }));
    let first!: Promise<boolean>;
    act(() => {
      first = result.current.send('First question');
    });
    act(() => result.current.stop());
    let second!: Promise<boolean>;
    act(() => {
      second = result.current.send('Second question');
    });
    // Both went to the server: the second was not refused because the first had not settled.
    expect(calls.map((c) => c.request.message)).toEqual(['First question', 'Second question']);
    await act(async () => {
      finishTeardown.shift()!();
      await first;
    });
    expect(result.current.streaming).toBe(true);
    // The second is still the one Stop reaches.
    act(() => result.current.stop());
    expect(calls[1]!.signal.aborted).toBe(true);
    await act(async () => {
      finishTeardown.shift()!();
      await second;
    });
    expect(result.current.streaming).toBe(false);
  });
});

describe('useChatSession send with a stream (open mic voice turn)', () => {
  it('shows the question and the reply from the given events, without a chat request of its own', async () => {
    const before = calls.length;
    const { result } = renderHook(() => useChatSession({ personalityId: 'p1', signedIn: false, initialMessages: [], initialConversationId: null }));
    const replies: { text: string; final: boolean }[] = [];
    await act(async () => {
      await result.current.send('Spoken question', {
        onReply: ({ text, final }) => void replies.push({ text, final }),
        stream: async (_signal, onEvent) => {
          onEvent({ type: 'start', conversationId: null, userMessageId: null, mode: 'model', documentReferences: [], documentsProcessing: false });
          onEvent({ type: 'delta', text: 'Spoken ' });
          onEvent({ type: 'delta', text: 'answer.' });
          onEvent({ type: 'done', messageId: null, content: 'Spoken answer.', documentReferences: [] });
        },
      });
    });
    expect(calls.length).toBe(before);
    expect(result.current.messages.map((m) => [m.sender, m.content])).toEqual([
      ['user', 'Spoken question'],
      ['personality', 'Spoken answer.'],
    ]);
    expect(replies.at(-1)).toEqual({ text: 'Spoken answer.', final: true });
    // An anonymous visitor's next turn carries this exchange as its history.
    expect(result.current.chatContext().conversationHistory?.map((h) => h.content)).toEqual(['Spoken question', 'Spoken answer.']);
  });
});

describe('useChatSession context for the next message, right after a send', () => {
  // Open mic sends a turn right behind one cut at the longest recording: its context is read before
  // React has rendered the earlier turn's question.
  const never = () => new Promise<void>(() => {});

  it("an anonymous visitor's history carries the question just sent", () => {
    const { result } = renderHook(() =>
      useChatSession({
        personalityId: 'p1',
        signedIn: false,
        initialMessages: [{ id: 'm0', sender: 'user', content: 'Earlier question', timestamp: '2025-01-01T00:00:00.000Z', kind: 'message', documentReferences: [] }],
        initialConversationId: null,
      }),
    );
    let history: string[] | undefined;
    act(() => {
      void result.current.send('The first sixty seconds', { stream: never });
      history = result.current.chatContext().conversationHistory?.map((h) => h.content);
    });
    expect(history).toEqual(['Earlier question', 'The first sixty seconds']);
  });

  it("a signed-in person's new conversation: its id, once the server has said it, goes with the next message", () => {
    const { result } = renderHook(() => useChatSession({ personalityId: 'p1', signedIn: true, initialMessages: [], initialConversationId: null }));
    let context: ReturnType<typeof result.current.chatContext> | undefined;
    act(() => {
      void result.current.send('The first sixty seconds', {
        stream: (_signal, onEvent) => {
          onEvent({ type: 'start', conversationId: 'c-new', userMessageId: 'u1', mode: 'model', documentReferences: [], documentsProcessing: false });
          return never();
        },
      });
      context = result.current.chatContext();
    });
    expect(context).toEqual({ conversationId: 'c-new', conversationHistory: undefined });
  });
});

describe('useChatSession lines of an agent call', () => {
  it('shows a line moderation withheld as the notice in its place, and never sends it back as history', () => {
    const { result } = renderHook(() => useChatSession({ personalityId: 'p1', signedIn: false, initialMessages: [], initialConversationId: null }));
    let asked = '';
    act(() => {
      asked = result.current.append('user', 'A severe line');
      result.current.append('personality', 'A calm answer');
    });
    act(() => result.current.withholdLine(asked, 'That was withheld.'));
    expect(result.current.messages.map((m) => [m.sender, m.kind, m.content])).toEqual([
      ['user', 'fallback', 'That was withheld.'],
      ['personality', 'message', 'A calm answer'],
    ]);
    expect(result.current.chatContext().conversationHistory).toEqual([{ role: 'assistant', content: 'A calm answer' }]);
  });
});
