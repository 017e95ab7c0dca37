// Streams one prepared exchange: start, the reply word by word, then done; or, when the model
// fails, an error event carrying an in-character fallback. Nothing is written to the database
// before the model is called (ids are made here), so only the access check, retrieval and the
// prompt stand before the first token. Saving the person's message (and a new conversation's row)
// and logging the question start together with the model call and run beside it; the reply is
// saved as it completes. The person's message is durable before `done` is sent, and a failure to
// save is logged as an error and reported in the stream (`saveFailed`), never silent.
import type { PronunciationReport } from '../../../shared/schemas/pronunciation';
import crypto from 'node:crypto';
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { isForeignKeyViolation } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import type { ChatStreamEvent } from '../../../shared/chat-stream';
import type { DocumentReference } from '../../../shared/schemas/conversations';
import type { ChatResponder, ChatTurn } from '../../ai/providers';
import { isDeclined, wordChunks } from '../../ai/offline/offline-responder';
import type { PersonalityRow } from '../personalities/personalities.repository';
import type { QuestionService } from '../questions/questions.service';
import * as repo from './conversations.repository';
import { insertQuestionSql } from '../questions/questions.repository';
import { NEW_CONVERSATION_TITLE, titleFromMessage } from './conversations.service';
import type { ContextCache } from './context-cache';
import type { PreviewPayload } from './preview-token';
import type { ModerationService } from '../moderation/moderation.service';
import type { ReplyTokens } from '../moderation/reply-token';
import type { InFlight } from '../../lib/in-flight';
import { uuidV4FromBytes } from '../../../shared/uuid-v4';

export interface Exchange {
  personality: PersonalityRow;
  cacheHit: boolean;
  greeting: string;
  /** An existing saved conversation (already checked to be the asker's), or null. */
  conversationId: string | null;
  /** Its title (a placeholder title is replaced by the first question). */
  conversationTitle?: string;
  message: string;
  messages: ChatTurn[];
  documents: DocumentReference[];
  passages: PreviewPayload['passages'];
  documentsProcessing: boolean;
  /** Phonetic mode: the report the offline responder coaches from (the model has it in the prompt). */
  pronunciation?: PronunciationReport;
  /** Open mic: the page's id for the turn (its question's id) and the withdrawn turns it replaces. */
  turn?: { id?: string; replaces: string[] };
}

export interface ChatRun {
  conversationId: string | null;
  /**
   * The events to stream; stops early (saving what was said) when `signal` aborts.
   * `onReplyComplete`: the model's whole reply, as soon as it has ended, before it is checked and
   * saved (open mic speaks its last sentence meanwhile; a withheld reply still becomes an error event).
   */
  events(signal: AbortSignal, hooks?: { onReplyComplete?(text: string): void }): AsyncGenerator<ChatStreamEvent>;
}

export interface RunDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  responder: ChatResponder;
  cache: ContextCache;
  questions: QuestionService;
  /** Checks each completed reply (severe replies are withheld); absent in some tests and benches. */
  moderation?: Pick<ModerationService, 'checkAndFlag'>;
  /** Signs each completed reply for a report of it; absent in some tests and benches. */
  replyTokens?: Pick<ReplyTokens, 'sign'>;
  /** Runs still saving hold the database open at shutdown (lib/in-flight.ts). */
  inFlight?: InFlight;
}

/**
 * The saved question's id for an open-mic turn the page named: derived per person, so a page's id
 * can never meet another person's message (nor be chosen to), and the same on every process.
 */
export function turnMessageId(userId: string, turnId: string): string {
  return uuidV4FromBytes(crypto.createHash('sha256').update(`voice-turn:${userId}:${turnId}`).digest());
}

export function fallbackReply(seed: string): string {
  const replies = messages.chat.fallbackReplies;
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return replies[h % replies.length]!;
}

export function createChatRun(deps: RunDeps, viewer: Viewer | null, ex: Exchange, startedAt: number): ChatRun {
  const { db, clock, logger, responder } = deps;
  const askedAt = clock.now();
  const isNew = viewer !== null && ex.conversationId === null;
  const conversationId = isNew ? crypto.randomUUID() : ex.conversationId;
  const userMessageId = viewer ? (ex.turn?.id ? turnMessageId(viewer.id, ex.turn.id) : crypto.randomUUID()) : null;

  // Set when a save failed because the personality was deleted meanwhile (its rows went with it);
  // a conversation deleted on its own (another tab) is the ordinary "could not be saved".
  let gone = false;
  const noteIfGone = async (err: unknown) => {
    if (isForeignKeyViolation(err)) gone = !(await repo.personalityExists(db, ex.personality.id).catch(() => true));
  };
  // Open mic: turns withdrawn by the page whose cancel arrived as their exchange began left their
  // question (and a reply's start) saved; this turn carries their audio, so they go once its own
  // question is safely saved. A failure leaves a duplicate question, never a lost one: logged only.
  const removeWithdrawn = async (asker: Viewer) => {
    if (!ex.turn?.replaces.length) return;
    await repo
      .removeWithdrawnTurns(db, { userId: asker.id, personalityId: ex.personality.id, messageIds: ex.turn.replaces.map((id) => turnMessageId(asker.id, id)), before: askedAt })
      .catch((err: unknown) => logger.warn(`could not remove withdrawn open-mic turns (personality ${ex.personality.id})`, err));
  };
  // The question and the person's message: once, beside the model call, in one statement (a new
  // conversation's row and greeting, the message, the owner's question log: repo.saveQuestion).
  // 'none': nothing to save but the question log (an anonymous visitor's conversation lives in
  // the browser); 'failed': the database refused the message, nothing of it was saved.
  let persisted: Promise<'saved' | 'none' | 'failed'> | undefined;
  const persist = () =>
    (persisted ??= (async () => {
      if (!viewer || !conversationId) {
        await deps.questions.log(ex.personality.id, ex.message, null);
        return 'none';
      }
      const title = titleFromMessage(ex.message);
      const save = (withQuestion: boolean) =>
        repo.saveQuestion(db, {
          conversation: isNew
            ? { userId: viewer.id, personalityId: ex.personality.id, title, greeting: ex.greeting, now: new Date(askedAt.getTime() - 1) }
            : undefined,
          message: {
            id: userMessageId!,
            conversationId,
            content: ex.message,
            now: askedAt,
            rename: ex.conversationTitle === NEW_CONVERSATION_TITLE ? title : undefined,
          },
          question: withQuestion ? insertQuestionSql({ personalityId: ex.personality.id, questionText: ex.message, userId: viewer.id, askedAt }) : undefined,
        });
      try {
        await save(true);
        await removeWithdrawn(viewer);
        return 'saved';
      } catch (first) {
        // The statement failed as a whole, so nothing of it was kept. The question log is not
        // critical (spec: its failure never fails the chat): the message is saved without it.
        try {
          await save(false);
          logger.warn(`could not log a question for personality ${ex.personality.id}`, first);
          await removeWithdrawn(viewer);
          return 'saved';
        } catch (err) {
          await noteIfGone(err);
          // The error itself, not its message: a failed statement's message carries its parameters
          // (the person's words), which the logger leaves out of an Error. A personality deleted
          // meanwhile is an ordinary race (another tab), not a fault to alarm an operator with.
          if (gone) logger.info(`a chat message was not saved: personality ${ex.personality.id} was deleted meanwhile`);
          else logger.error(`could not save a chat message (conversation ${conversationId})`, err);
          return 'failed';
        }
      }
    })());

  /**
   * Saves the reply after the person's message; `failed` when either could not be saved. The
   * reply's statement is sent at once, not after the message's save is confirmed (that confirmation
   * would cost `done` a second wait in the database's queue): it adds the reply only if the
   * message is there. The embedded database runs statements in the order sent, so it usually is;
   * when not (a pooled PostgreSQL connection ran it first, or the message's save failed or was
   * retried), nothing was added, and it is sent again once the message is known to be saved.
   */
  const save = async (content: string, kind: 'message' | 'stopped' | 'cut_off' | 'fallback', refs: DocumentReference[]): Promise<{ messageId: string | null; failed: boolean }> => {
    const asking = persist();
    if (!viewer || !conversationId) return { messageId: null, failed: (await asking) === 'failed' };
    // Strictly after the question, whatever the clock says.
    const now = new Date(Math.max(clock.now().getTime(), askedAt.getTime() + 1));
    const reply = { id: crypto.randomUUID(), conversationId, kind, content, documentReferences: refs, now };
    const early = repo.insertReplyAfter(db, { ...reply, afterMessageId: userMessageId! }).catch(() => false);
    const [asked, added] = await Promise.all([asking, early]);
    if (asked !== 'saved') return { messageId: null, failed: true };
    if (added) return { messageId: reply.id, failed: false };
    try {
      // The same id: a reply is never saved twice.
      return { messageId: await repo.insertMessage(db, { ...reply, role: 'assistant' }), failed: false };
    } catch (err) {
      await noteIfGone(err);
      if (gone) logger.info(`a reply was not saved: personality ${ex.personality.id} was deleted meanwhile`);
      else logger.error(`could not save a reply (conversation ${conversationId})`, err);
      return { messageId: null, failed: true };
    }
  };
  // Deleted meanwhile (its conversation went with it): trying again cannot help, so say why.
  const notSaved = (failed: boolean) => (failed ? { saveFailed: gone ? messages.chat.personalityGone : messages.chat.notSaved } : {});

  return {
    conversationId,
    async *events(requestSignal, hooks) {
      // Until the reply (or what was said of it) is saved, shutdown waits before closing the
      // database; a shutdown that cannot wait for the reply to end stops it, as Stop does.
      const ended = deps.inFlight?.begin();
      const signal = deps.inFlight ? AbortSignal.any([requestSignal, deps.inFlight.stopping]) : requestSignal;
      let text = '';
      let first = true;
      let settled = false;
      const emit = (piece: string): ChatStreamEvent => {
        if (first) {
          first = false;
          deps.cache.recordTimeToFirstToken(performance.now() - startedAt, ex.cacheHit);
        }
        text += piece;
        return { type: 'delta', text: piece };
      };
      // The model is called first, before the stream's first event is written (the response's
      // headers go out while the model works); saving starts beside it, and the notice (if any)
      // is sent while the model works. Per piece only framing is left: no awaits besides the
      // stream's.
      let reply: AsyncIterator<string> | undefined;
      let finished = false;
      let replied = false;
      /**
       * The reply so far (completed, broken off or stopped) is checked before it is saved: a severe
       * one is withheld (the person saw it stream, so the log replaces it with the notice, and the
       * event to send says so); anything flagged waits for an admin.
       */
      // An offline reply that says its documents hold nothing on the question cites none of them
      // (the passages it was given are not where an answer came from).
      const references = () => (responder.mode === 'offline' && isDeclined(text) ? [] : ex.documents);
      const checkAndSave = async (kind: 'message' | 'stopped' | 'cut_off'): Promise<{ withheld: ChatStreamEvent } | { messageId: string | null; failed: boolean }> => {
        const verdict = await deps.moderation?.checkAndFlag(ex.personality.id, 'reply', text);
        if (!verdict?.severe) return save(text, kind, references());
        const withheld = messages.moderation.replyWithheld;
        const { messageId, failed } = await save(withheld, 'fallback', []);
        return { withheld: { type: 'error', code: 'REPLY_WITHHELD', message: withheld, fallback: withheld, messageId, ...notSaved(failed) } };
      };
      try {
        reply = deps.responder
          .streamReply({ messages: ex.messages, personalityName: ex.personality.name, question: ex.message, passages: ex.passages, pronunciation: ex.pronunciation, signal })
          [Symbol.asyncIterator]();
        const next = reply.next();
        next.catch(() => {}); // awaited below; handled here so a quick failure is never "unhandled"
        void persist();
        yield { type: 'start', conversationId, userMessageId, mode: responder.mode, documentReferences: ex.documents, documentsProcessing: ex.documentsProcessing };
        if (ex.documentsProcessing) for (const w of wordChunks(`${messages.chat.documentsProcessing}\n\n`)) yield emit(w);
        for (let piece = await next; !piece.done; piece = await reply.next()) {
          if (signal.aborted) break;
          replied = true;
          yield emit(piece.value);
        }
        finished = !signal.aborted;
        if (signal.aborted) return;
        if (!replied) throw new Error('the model returned an empty reply');
        settled = true;
        hooks?.onReplyComplete?.(text);
        const kept = await checkAndSave('message');
        if ('withheld' in kept) {
          yield kept.withheld;
          return;
        }
        const { messageId, failed } = kept;
        const replyToken = deps.replyTokens?.sign(ex.personality.id, text);
        yield { type: 'done', messageId, content: text, documentReferences: references(), ...(replyToken ? { replyToken } : {}), ...notSaved(failed) };
      } catch (err) {
        if (signal.aborted) return;
        settled = true;
        logger.warn(`chat reply failed (personality ${ex.personality.id})`, err instanceof Error ? err.message : err);
        if (replied && text.trim()) {
          // It broke off after some words: those the person saw are kept (marked cut off, not
          // stopped: the person did not stop it), checked like a completed one, rather than
          // swapped for a canned line.
          const kept = await checkAndSave('cut_off');
          if ('withheld' in kept) {
            yield kept.withheld;
            return;
          }
          const { messageId, failed } = kept;
          yield { type: 'error', code: 'MODEL_FAILED', message: messages.chat.aiFailed, fallback: text, partial: true, messageId, ...notSaved(failed) };
          return;
        }
        const fallback = fallbackReply(ex.message);
        const { messageId, failed } = await save(fallback, 'fallback', []);
        yield { type: 'error', code: 'MODEL_FAILED', message: messages.chat.aiFailed, fallback, messageId, ...notSaved(failed) };
      } finally {
        // Left early (Stop, a dropped connection): end the model call too.
        if (!finished) void reply?.return?.(undefined)?.catch(() => {});
        // Stopped by the person (or the connection dropped): keep the question and what they saw,
        // checked like a completed reply (a severe one is not kept; anything flagged waits for an admin).
        try {
          if (!settled) {
            if (text.trim()) await checkAndSave('stopped');
            else await persist();
          }
        } finally {
          ended?.();
        }
      }
    },
  };
}
