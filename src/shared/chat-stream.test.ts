import { describe, expect, it } from 'vitest';
import { createChatStreamParser, formatChatEvent, type ChatStreamEvent } from './chat-stream';
import { splitDoNotRead, stripDoNotRead } from './do-not-read';
import { matchPercent, referenceName } from './document-reference';

describe('chat stream parser', () => {
  it('reads events split anywhere across chunks', () => {
    const events: ChatStreamEvent[] = [
      { type: 'start', conversationId: null, userMessageId: null, mode: 'offline', documentReferences: [], documentsProcessing: false },
      { type: 'delta', text: 'Hello\n\nworld ' },
      { type: 'done', messageId: null, content: 'Hello\n\nworld ', documentReferences: [] },
    ];
    const wire = events.map((e) => {
      const { event, data } = formatChatEvent(e);
      return `event: ${event}\ndata: ${data}\n\n`;
    }).join('');
    const parser = createChatStreamParser();
    const got: ChatStreamEvent[] = [];
    for (let i = 0; i < wire.length; i += 7) got.push(...parser.feed(wire.slice(i, i + 7)));
    expect(got).toEqual(events);
  });

  it('ignores comments and unknown events', () => {
    const parser = createChatStreamParser();
    expect(parser.feed(': keep-alive\n\nevent: other\ndata: {}\n\nevent: delta\ndata: {"text":"a"}\r\n\r\n')).toEqual([{ type: 'delta', text: 'a' }]);
  });
});

describe('DO_NOT_READ and references', () => {
  it('splits bold segments and strips them for speech', () => {
    const text = 'I met him in 1833. [DO_NOT_READ](from notes.txt (chunk 1))[/DO_NOT_READ] Truly.';
    expect(splitDoNotRead(text)).toEqual([
      { text: 'I met him in 1833. ', doNotRead: false },
      { text: '(from notes.txt (chunk 1))', doNotRead: true },
      { text: ' Truly.', doNotRead: false },
    ]);
    expect(stripDoNotRead(text)).toBe('I met him in 1833. Truly.');
    expect(splitDoNotRead('a [DO_NOT_READ]open')).toEqual([{ text: 'a ', doNotRead: false }, { text: 'open', doNotRead: true }]);
  });

  it('names chunks from 1 and shows similarity as a percentage', () => {
    expect(referenceName('notes.txt', 0)).toBe('notes.txt (chunk 1)');
    expect(matchPercent(0.876)).toBe('88% match');
  });
});
