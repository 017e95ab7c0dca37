// One open conversation: its messages, sending (or "Send Prompt" with a signed preview), the reply
// streaming in, and Stop. The reply is shown as it arrives; a model failure shows the toast and
// the in-character reply the server sends (or one of ours when the connection itself failed), so
// the conversation never dead-ends. A refusal (4xx: preview expired, rate limited ...), or a server
// that could not be reached at all, takes the question back out of the log so the caller can put
// it back in the message box: nothing was sent, so nothing should look sent.
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { ChatStreamEvent } from '../../../../shared/chat-stream';
import { messages as texts } from '../../../../shared/messages';
import { ApiError } from '../../../lib/api-client';
import type { PronunciationReport } from '../../../../shared/schemas/pronunciation';
import type { HistoryItem } from '../../../../shared/schemas/conversations';
import { streamChat } from '../api/stream-chat';
import { historyFrom } from '../utils/chat-history';
import { localId, type LogMessage } from '../utils/log-message';

export interface ChatSessionOptions {
  personalityId: string;
  /** Signed-in people's conversations are saved on the server; anonymous ones send their history. */
  signedIn: boolean;
  initialMessages: LogMessage[];
  initialConversationId: string | null;
  /** The server saved the first exchange of a new conversation under this id. */
  onConversationStarted?: (conversationId: string) => void;
  /** An exchange ended (replied, failed, stopped or refused). */
  onSettled?: () => void;
}

export interface SendOptions {
  /** From the prompt preview: the server sends exactly the previewed prompt. */
  previewId?: string;
  /** Phonetic mode: the spoken message's pronunciation report (shown under it; the reply coaches). */
  pronunciationReport?: PronunciationReport;
  /** The reply as it grows (voice speaks it sentence by sentence); `final` once it is complete. */
  onReply?: (reply: { id: string; text: string; final: boolean }) => void;
  /**
   * The reply's events come from a request already made (open mic's voice turn carried the
   * question as audio): read them here instead of posting to the chat route. Rejects like the
   * chat stream (a failed connection); aborting `signal` must stop it.
   */
  stream?: (signal: AbortSignal, onEvent: (event: ChatStreamEvent) => void) => Promise<void>;
}

/** The toast when the chat request never reached the app (offline, server down, a gateway's error page). */
export const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

/**
 * A signed-in person's new conversation is created on the server before its first event (`start`,
 * which carries its id). Stop before then waits this long for `start`, so the page learns the id
 * and the next message continues that conversation instead of starting a second one.
 */
const STOP_WAITS_FOR_START_MS = 5000;

/** The request failed before the app answered: the fetch itself, or a proxy's 502/503/504 page. */
function unreachable(err: unknown): boolean {
  if (err instanceof TypeError) return true;
  if (!(err instanceof ApiError)) return false;
  // The app's own errors carry a code; a gateway's page (HTML, or nothing) does not.
  return err.code === 'NETWORK' || ([502, 503, 504].includes(err.status) && err.code === 'UNKNOWN');
}

const clientFallback = () => texts.chat.fallbackReplies[Math.floor(Math.random() * texts.chat.fallbackReplies.length)]!;

export function useChatSession(options: ChatSessionOptions) {
  const [messages, setMessages] = useState<LogMessage[]>(options.initialMessages);
  const [conversationId, setConversationId] = useState<string | null>(options.initialConversationId);
  const [streaming, setStreaming] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  // Stop for the reply under way (it may wait for the server's start, see STOP_WAITS_FOR_START_MS).
  const stopRef = useRef<(() => void) | null>(null);
  // The latest values for the async send below, which outlives the render that started it. The
  // log and the conversation's id change here at once, with their state (changeMessages, the
  // `start` event), not after React renders: open mic sends a turn right behind a cut one, and its
  // context must already hold that turn's question (and, signed in, the new conversation's id).
  const latest = useRef({ options, messages, conversationId });
  useEffect(() => {
    latest.current.options = options;
  });

  const changeMessages = useCallback((change: (all: LogMessage[]) => LogMessage[]) => {
    latest.current.messages = change(latest.current.messages);
    setMessages(change);
  }, []);

  // Leaving the conversation stops its reply (and, through the closed request, the model call).
  useEffect(() => () => abortRef.current?.abort(), []);

  const patch = useCallback(
    (id: string, change: (m: LogMessage) => LogMessage) => changeMessages((all) => all.map((m) => (m.id === id ? change(m) : m))),
    [changeMessages],
  );

  /** Sends `text` (trimmed; blank is ignored). Resolves false when the server refused it. */
  const send = useCallback(
    async (text: string, { previewId, onReply, pronunciationReport, stream }: SendOptions = {}): Promise<boolean> => {
      const message = text.trim();
      // A stopped reply still tearing down does not hold the next message back (open mic's
      // barge-in sends the next turn right after stopping the last one).
      if (!message || (abortRef.current && !abortRef.current.signal.aborted)) return false;
      const { options: opts, messages: before, conversationId: current } = latest.current;
      const controller = new AbortController();
      abortRef.current = controller;
      const now = new Date().toISOString();
      const question: LogMessage = {
        id: localId('user'),
        sender: 'user',
        content: message,
        timestamp: now,
        kind: 'message',
        documentReferences: [],
        ...(pronunciationReport ? { pronunciationReport } : {}),
      };
      const replyId = localId('reply');
      const reply: LogMessage = { id: replyId, sender: 'personality', content: '', timestamp: now, kind: 'message', documentReferences: [], streaming: true };
      changeMessages((all) => [...all, question, reply]);
      setStreaming(true);

      let ended = false;
      let refused = false;
      let replyText = '';
      let started = false;
      let stopAfterStart = false;
      let stopTimer: ReturnType<typeof setTimeout> | undefined;
      const abort = () => {
        clearTimeout(stopTimer);
        controller.abort();
      };
      // Only a new signed-in conversation has an id still to learn; anything else stops at once.
      const waitsForStart = !stream && opts.signedIn && current === null;
      stopRef.current = () => {
        if (started || !waitsForStart) return abort();
        if (stopAfterStart) return;
        stopAfterStart = true;
        stopTimer = setTimeout(abort, STOP_WAITS_FOR_START_MS);
      };
      const onEvent = (event: ChatStreamEvent) => {
        started = true;
        switch (event.type) {
          case 'start':
            if (event.conversationId && event.conversationId !== latest.current.conversationId) {
              latest.current.conversationId = event.conversationId;
              setConversationId(event.conversationId);
              latest.current.options.onConversationStarted?.(event.conversationId);
            }
            if (stopAfterStart) {
              abort();
              break;
            }
            patch(replyId, (m) => ({ ...m, documentReferences: event.documentReferences, offline: event.mode === 'offline' }));
            break;
          case 'delta':
            replyText += event.text;
            patch(replyId, (m) => ({ ...m, content: m.content + event.text }));
            onReply?.({ id: replyId, text: replyText, final: false });
            break;
          case 'done':
            ended = true;
            // The reply arrived but the exchange could not be kept: say so, never silently.
            if (event.saveFailed) toast.error(event.saveFailed);
            patch(replyId, (m) => ({ ...m, content: event.content, documentReferences: event.documentReferences, streaming: false, ...(event.replyToken ? { replyToken: event.replyToken } : {}) }));
            onReply?.({ id: replyId, text: event.content, final: true });
            break;
          case 'error':
            ended = true;
            toast.error(event.saveFailed ? `${event.message} ${event.saveFailed}` : event.message);
            // Broken off after some words: they stay, marked Cut off (as saved); else the fallback.
            patch(replyId, (m) =>
              event.partial
                ? { ...m, content: event.fallback, kind: 'cut_off', streaming: false }
                : { ...m, content: event.fallback, kind: 'fallback', documentReferences: [], streaming: false },
            );
            onReply?.({ id: replyId, text: event.fallback, final: true });
            break;
        }
      };

      try {
        if (stream) await stream(controller.signal, onEvent);
        else
          await streamChat({
            personalityId: opts.personalityId,
            request: {
              message,
              conversationId: current ?? undefined,
              // With a preview the server already holds the exact messages; signed-in history is on the server.
              conversationHistory: opts.signedIn || previewId ? undefined : historyFrom(before),
              previewId,
              pronunciationReport,
            },
            signal: controller.signal,
            onEvent,
          });
        if (!ended && !controller.signal.aborted) throw new Error('The reply ended before it was complete');
      } catch (err) {
        if (!controller.signal.aborted) {
          const refusal = err instanceof ApiError && err.status >= 400 && err.status < 500;
          // The app failed before the reply began (its database is down, say): nothing reached
          // the model, so "Failed to get AI response" and an in-character line would blame it.
          const failedBeforeReply = !started && err instanceof ApiError && err.status >= 500 && !unreachable(err);
          if (refusal || failedBeforeReply || (!started && unreachable(err))) {
            refused = true;
            toast.error(refusal || failedBeforeReply ? err.message : UNREACHABLE);
            changeMessages((all) => all.filter((m) => m.id !== question.id && m.id !== replyId));
          } else {
            toast.error(texts.chat.aiFailed);
            if (replyText.trim()) {
              // The connection broke mid-reply: the words that arrived stay, marked Stopped (the
              // server keeps them the same way).
              patch(replyId, (m) => ({ ...m, kind: 'stopped', streaming: false }));
              onReply?.({ id: replyId, text: replyText, final: true });
            } else {
              const fallback = clientFallback();
              patch(replyId, (m) => ({ ...m, content: fallback, kind: 'fallback', documentReferences: [], streaming: false }));
              onReply?.({ id: replyId, text: fallback, final: true });
            }
          }
        }
      } finally {
        clearTimeout(stopTimer);
        if (controller.signal.aborted && !ended) {
          // Stopped: keep what was said, marked Stopped (the server saves it the same way). Stopped
          // before any word, the empty reply stays as the mark, so the question is not left
          // looking unanswered for no reason (the server keeps the question alone).
          patch(replyId, (m) => ({ ...m, kind: 'stopped', streaming: false }));
        }
        // Unless a newer send has started since this one was stopped: it is that one's now.
        if (abortRef.current === controller) {
          abortRef.current = null;
          stopRef.current = null;
          setStreaming(false);
        }
        latest.current.options.onSettled?.();
      }
      return !refused;
    },
    [patch, changeMessages],
  );

  const stop = useCallback(() => (stopRef.current ? stopRef.current() : abortRef.current?.abort()), []);

  /** A finished line said elsewhere (an open-mic agent call): shown in the log as it is. Returns its id in the log. */
  const append = useCallback((sender: 'user' | 'personality', content: string): string => {
    const line: LogMessage = {
      id: localId(sender === 'user' ? 'user' : 'reply'),
      sender,
      content,
      timestamp: new Date().toISOString(),
      kind: 'message',
      documentReferences: [],
    };
    changeMessages((all) => [...all, line]);
    return line.id;
  }, [changeMessages]);

  /**
   * An appended line moderation withheld (severe content): the server's notice takes its place, as
   * a fallback, never sent back to the model as history (the saved conversation keeps the same).
   */
  const withholdLine = useCallback(
    (id: string, notice: string) => patch(id, (m) => ({ ...m, content: notice, kind: 'fallback', documentReferences: [] })),
    [patch],
  );

  /** The server saved lines of this conversation under `id` (the first line of a call starts one). */
  const adoptConversation = useCallback((id: string) => {
    if (id === latest.current.conversationId) return;
    latest.current.conversationId = id;
    setConversationId(id);
    latest.current.options.onConversationStarted?.(id);
  }, []);

  const currentConversationId = useCallback(() => latest.current.conversationId, []);

  /** What a message sent now would carry besides its text (open mic's voice turn sends it with the audio). */
  const chatContext = useCallback((): { conversationId?: string; conversationHistory?: HistoryItem[] } => {
    const { options: opts, messages: log, conversationId: current } = latest.current;
    return { conversationId: current ?? undefined, conversationHistory: opts.signedIn ? undefined : historyFrom(log) };
  }, []);

  return { messages, conversationId, streaming, send, stop, append, withholdLine, adoptConversation, currentConversationId, chatContext };
}
