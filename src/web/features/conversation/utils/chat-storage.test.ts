// An anonymous visitor's transcript survives a reload in the tab, with what a report of a reply needs.
import { afterEach, describe, expect, it } from 'vitest';
import { chatStorage } from './chat-storage';
import type { LogMessage } from './log-message';

afterEach(() => window.sessionStorage.clear());

describe('chatStorage', () => {
  it("keeps a reply's token through a reload, and leaves out a reply still streaming", () => {
    const reply: LogMessage = { id: 'r-1', sender: 'personality', content: 'Gravity bends light.', timestamp: '2026-11-27T10:00:00.000Z', kind: 'message', documentReferences: [], offline: true, replyToken: 'tok.sig' };
    const streaming: LogMessage = { ...reply, id: 'r-2', streaming: true, replyToken: undefined };
    chatStorage.saveTranscript('p-1', [reply, streaming]);
    expect(chatStorage.loadTranscript('p-1')).toEqual([reply]);
  });
});
