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
    const { result } = renderHook(() => useChatSession({ personalityId: 'p1', signedIn: true, initialMessages: [], initialConversationId: null }));
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
