// What an anonymous visitor's browser sends back as history: never more than the server would use,
// so a long conversation (in any script) never makes a message too large to send.
import { describe, expect, it } from 'vitest';
import { limits } from '../../../../shared/limits';
import { historyFrom } from './chat-history';
import type { LogMessage } from './log-message';

const at = '2026-12-02T10:00:00.000Z';
function turn(i: number, content: string, extra: Partial<LogMessage> = {}): LogMessage {
  return { id: `m-${i}`, sender: i % 2 === 0 ? 'user' : 'personality', content, timestamp: at, kind: 'message', documentReferences: [], ...extra };
}

describe('historyFrom', () => {
  it('sends real exchanges only: no greeting, fallback, or reply still streaming', () => {
    const log: LogMessage[] = [
      { ...turn(1, 'Hello, I am Ada.'), id: 'greeting', kind: 'greeting' },
      turn(2, 'What did you build?'),
      turn(3, 'An engine.'),
      turn(4, 'And then?'),
      turn(5, 'Sorry, my thoughts wandered.', { kind: 'fallback' }),
      turn(6, 'Tell me more.'),
      turn(7, 'It was', { streaming: true }),
    ];
    expect(historyFrom(log)).toEqual([
      { role: 'user', content: 'What did you build?' },
      { role: 'assistant', content: 'An engine.' },
      { role: 'user', content: 'And then?' },
      { role: 'user', content: 'Tell me more.' },
    ]);
  });

  it('keeps the newest turns, at most as many and as long as the server uses', () => {
    const log = Array.from({ length: 60 }, (_, i) => turn(i, `turn ${i}`));
    const sent = historyFrom(log);
    expect(sent).toHaveLength(limits.chatHistoryMaxMessages);
    expect(sent.at(-1)!.content).toBe('turn 59');
    expect(sent[0]!.content).toBe(`turn ${60 - limits.chatHistoryMaxMessages}`);
  });

  it('stays far under the request size limit for a long conversation in Japanese (it reached 413 before)', () => {
    // 50 exchanges of long replies: what a visitor reading in Japanese builds in an evening.
    const log = Array.from({ length: 100 }, (_, i) => turn(i, '日本語の長い返事です。'.repeat(90)));
    const sent = historyFrom(log);
    const characters = sent.reduce((n, t) => n + t.content.length, 0);
    expect(characters).toBeLessThanOrEqual(limits.chatHistoryMaxChars);
    const bytes = new TextEncoder().encode(JSON.stringify({ message: 'x'.repeat(limits.chatMessageMax), conversationHistory: sent })).length;
    expect(bytes).toBeLessThan(limits.jsonBodyMaxBytes);
    // The newest turn is whole; the oldest kept is cut from its start, as the server cuts it.
    expect(sent.at(-1)!.content).toBe(log.at(-1)!.content);
    expect(log.some((m) => m.content.startsWith(sent[0]!.content))).toBe(true);
  });
});
