// One exchange of a text conversation: check who may chat, gather history and passages, build
// the prompt (or take the signed preview), then stream the reply, save it and log the question.
// Everything that can be refused is refused before the stream starts, so errors keep their
// HTTP status; once streaming, a model failure becomes an error event with an in-character reply.
import type { PronunciationReport } from '../../../shared/schemas/pronunciation';
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import { referenceName } from '../../../shared/document-reference';
import { isModelHistory, type DocumentReference, type HistoryItem, type PromptPreview } from '../../../shared/schemas/conversations';
import type { ChatResponder, ChatTurn } from '../../ai/providers';
import { isUuid, loadVisiblePersonality } from '../personalities/personality-access';
import type { QuestionService } from '../questions/questions.service';
import * as repo from './conversations.repository';
import type { ConversationService } from './conversations.service';
import type { InFlight } from '../../lib/in-flight';
import { createChatRun, turnMessageId, type ChatRun, type Exchange } from './chat-run';
import type { PersonaContexts } from './persona-context';
import { boundHistory, buildMessages, buildSystemPrompt, type HistoryTurn } from './prompt-builder';
import { pronunciationNote } from './prompt-builder';
import type { PreviewSigner } from './preview-token';
import { answeringPassages, type RetrievedPassage, type Retriever } from './retrieval';
import { questionColumns } from './lexical-search';
import { readQuestionAndDocuments, stillUsableDocuments } from './retrieval.repository';
import type { ModerationService } from '../moderation/moderation.service';
import type { ReplyTokens } from '../moderation/reply-token';
import type { PendingHit } from '../rate-limits/rate-limits.middleware';

export interface ChatDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  responder: ChatResponder;
  retriever: Retriever;
  contexts: PersonaContexts;
  conversations: ConversationService;
  questions: QuestionService;
  previews: PreviewSigner;
  moderation?: Pick<ModerationService, 'checkAndFlag' | 'checkAhead'>;
  replyTokens?: Pick<ReplyTokens, 'sign'>;
  /** Replies still being saved, waited for at shutdown. */
  inFlight?: InFlight;
}

export interface ExchangeInput {
  message: string;
  /** Phonetic mode: the spoken message's pronunciation report (the reply coaches on it). */
  pronunciationReport?: PronunciationReport;
  conversationId?: string;
  conversationHistory?: HistoryItem[];
  /** Open mic: the page's id for this turn, saved as its question's id. */
  turnId?: string;
  /** Open mic: withdrawn turns this one carries the audio of; what a late cancel left of them is removed. */
  replaces?: string[];
}

export function toReference(p: Pick<RetrievedPassage, 'fileName' | 'chunkIndex' | 'similarity'> & { documentId: string }): DocumentReference {
  return { fileName: referenceName(p.fileName, p.chunkIndex), similarity: p.similarity, documentId: p.documentId, chunkIndex: p.chunkIndex };
}

export function createChatService(deps: ChatDeps) {
  const { db, clock, logger, responder, retriever, contexts, conversations, questions, previews, moderation, replyTokens, inFlight } = deps;

  /**
   * The person's message is checked before the model sees it (the offline classifier takes
   * microseconds); severe content is refused with a calm message and never sent, and anything
   * flagged is recorded for review. After the visibility check: nobody flags content against a
   * personality they may not see. The offline classifier's verdict is worked out while `work`
   * waits for the database (its first read is sent by then), not after it: off the first token's path.
   */
  async function screen<T>(personalityId: string, message: string, work: Promise<T>): Promise<T> {
    const ahead = moderation?.checkAhead(message);
    const result = await work;
    const verdict = moderation ? await moderation.checkAndFlag(personalityId, 'message', message, ahead) : undefined;
    if (verdict?.severe) throw new AppError('BAD_REQUEST', messages.moderation.messageWithheld, { details: { withheld: true } });
    return result;
  }

  /**
   * One statement (repo.findVisibleWithHistory): the chat limit's hit (when the route hands it
   * over: rateLimitBeside), the access check; when the exchange continues a saved conversation,
   * its recent messages (the asker's own, with this personality, checked in SQL); and retrieval's
   * first read, the question's words and the documents the asker may use (filtered by the asker in
   * its own SQL). Refused in that order: the limit (429), the personality, then the conversation
   * (404). No history for a new or anonymous conversation.
   */
  async function accessAndHistory(viewer: Viewer | null, personalityId: string, input: ExchangeInput, limit: PendingHit | undefined) {
    const wanted = input.conversationId;
    const found = await repo.findVisibleWithHistory(db, {
      personalityId,
      viewerId: viewer?.id ?? null,
      // Not a well-formed id, or nobody signed in: not read (and refused below).
      conversationId: wanted && viewer && isUuid(wanted) ? wanted : null,
      // Twice the bound: greetings and fallbacks are dropped before bounding.
      limit: limits.chatHistoryMaxMessages * 2,
      columns: questionColumns({ personalityId, viewerId: viewer?.id ?? null }, input.message),
      hit: limit?.sql,
    });
    if (limit) {
      if (found.hits === null) throw new Error('the rate limit was not counted');
      limit.check(found.hits);
    }
    if (!found.personality) throw new AppError('NOT_FOUND', messages.personality.notFound);
    if (wanted && !found.history) throw new AppError('NOT_FOUND', messages.chat.conversationNotFound);
    return { personality: found.personality, saved: found.history ?? undefined, known: readQuestionAndDocuments(found.extra) };
  }

  /** The history to send back, and the saved conversation's title when there is one. */
  function history(
    viewer: Viewer | null,
    saved: repo.SavedHistory | undefined,
    input: ExchangeInput,
    greeting: string,
  ): { turns: ChatTurn[]; title?: string } {
    if (saved) {
      // A withdrawn turn left saved (a late cancel) is this turn's own start: not history.
      const replaced = viewer && input.replaces?.length ? new Set(input.replaces.map((id) => turnMessageId(viewer.id, id))) : null;
      const withdrawn = replaced ? saved.messages.findIndex((m) => replaced.has(m.id)) : -1;
      const turns: HistoryTurn[] = (withdrawn >= 0 ? saved.messages.slice(0, withdrawn) : saved.messages)
        .filter((m) => isModelHistory(m.kind))
        .map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.content }));
      return { turns: boundHistory(turns), title: saved.title };
    }
    // Anonymous visitors keep their conversation in the browser; a signed-in person starting a
    // new conversation has no history, whatever the client sends.
    return { turns: viewer ? [] : boundHistory(input.conversationHistory ?? [], { greeting }) };
  }

  /**
   * Only what the first token needs: the access check with the saved history and retrieval's first
   * read (one statement), the persona from the context cache (its starters say whether the
   * question's vector is kept), then retrieval's ranking and its winning chunks, and the prompt.
   */
  async function prepare(viewer: Viewer | null, personalityId: string, input: ExchangeInput, limit?: PendingHit): Promise<Exchange> {
    const viewerId = viewer?.id ?? null;
    if (!isUuid(personalityId)) {
      await limit?.alone(); // a refused limit answers first
      throw new AppError('NOT_FOUND', messages.personality.notFound);
    }
    const { personality, saved, known } = await accessAndHistory(viewer, personalityId, input, limit);
    const { context, hit } = await contexts.get(personality);
    // A clicked starter's vector is kept (most visitors' first question is one).
    const starter = context.starters.includes(input.message);
    const result = await retriever.search({ personalityId, viewerId, text: input.message, limit: limits.chatPassages, known, starter });
    const { turns, title } = history(viewer, saved, input, context.greeting);
    // When the documents cannot answer, nothing is quoted or cited, and the prompt says so.
    const found = answeringPassages(result);
    const { documentsNotReady } = result;
    const documentsProcessing = documentsNotReady > 0;
    const coaching = input.pronunciationReport ? pronunciationNote(input.pronunciationReport) : '';
    const systemPrompt = buildSystemPrompt(context.personaPrompt, found, documentsProcessing) + coaching;
    return {
      personality,
      cacheHit: hit,
      greeting: context.greeting,
      conversationId: input.conversationId ?? null,
      conversationTitle: title,
      message: input.message,
      messages: buildMessages(systemPrompt, turns, input.message),
      documents: found.map(toReference),
      passages: found.map((p) => ({
        fileName: p.fileName,
        chunkIndex: p.chunkIndex,
        content: p.content,
        similarity: p.similarity,
        ...(p.bestSentence !== undefined ? { bestSentence: p.bestSentence, sentenceSimilarity: p.sentenceSimilarity } : {}),
      })),
      documentsProcessing,
      pronunciation: input.pronunciationReport,
      turn: input.turnId || input.replaces?.length ? { id: input.turnId, replaces: input.replaces ?? [] } : undefined,
    };
  }

  /** The exchange a signed preview id stands for, after checking it is this asker's, here, now. */
  async function fromPreview(viewer: Viewer | null, personalityId: string, input: ExchangeInput & { previewId: string }): Promise<Exchange> {
    const viewerId = viewer?.id ?? null;
    // Visibility first: someone who may not see the personality learns nothing about previews.
    const personality = await loadVisiblePersonality(db, personalityId, viewerId);
    const payload = previews.verify(input.previewId, clock.now().getTime());
    if (
      !payload ||
      payload.viewerId !== viewerId ||
      payload.personalityId !== personalityId ||
      payload.conversationId !== (input.conversationId ?? null) ||
      payload.message !== input.message
    ) {
      throw new AppError('BAD_REQUEST', messages.chat.previewExpired);
    }
    // The preview quotes passages as they were: a document made private or deleted since then
    // must not be sent (the person previews again and gets today's passages).
    const cited = payload.documents.map((d) => d.documentId);
    if (cited.length > 0) {
      const usable = await stillUsableDocuments(db, { personalityId, viewerId }, cited);
      if (cited.some((id) => !usable.has(id))) throw new AppError('BAD_REQUEST', messages.chat.previewExpired);
    }
    const conversation = payload.conversationId ? await conversations.loadOwned(viewer!, payload.conversationId) : undefined;
    const { context, hit } = await contexts.get(personality);
    return {
      personality,
      cacheHit: hit,
      greeting: context.greeting,
      conversationId: payload.conversationId,
      conversationTitle: conversation?.title,
      message: payload.message,
      messages: payload.messages,
      documents: payload.documents,
      passages: payload.passages,
      documentsProcessing: payload.documentsProcessing,
    };
  }

  return {
    async preview(viewer: Viewer | null, personalityId: string, input: ExchangeInput): Promise<PromptPreview> {
      const ex = await screen(personalityId, input.message, prepare(viewer, personalityId, input));
      const expiresAt = clock.now().getTime() + limits.chatPreviewTtlMs;
      const previewId = previews.sign({
        personalityId: ex.personality.id,
        viewerId: viewer?.id ?? null,
        conversationId: ex.conversationId,
        message: ex.message,
        messages: ex.messages,
        documents: ex.documents,
        passages: ex.passages,
        documentsProcessing: ex.documentsProcessing,
        expiresAt,
      });
      return {
        previewId,
        expiresAt: new Date(expiresAt).toISOString(),
        systemPrompt: ex.messages[0]!.content,
        documents: ex.documents,
        messagesArray: ex.messages,
      };
    },

    /**
     * Checks and records the question; the returned run streams the reply. The access check is
     * part of the one read that also loads the history and the question's words, so a caller that
     * checked already (open mic's turn, before speech-to-text) pays no extra statement for it.
     * `limit`: the chat limit's hit (rateLimitBeside), counted in that same read and decided before
     * anything else; a preview's exchange has no such read and counts it beside its own.
     */
    async start(
      viewer: Viewer | null,
      personalityId: string,
      input: ExchangeInput & { previewId?: string },
      startedAt: number,
      limit?: PendingHit,
    ): Promise<ChatRun> {
      // A signed preview's message was checked (and flagged) when it was previewed, and the
      // signature holds it unchanged: checking it again would file the same flag twice.
      const ex = input.previewId
        ? await afterLimit(limit, fromPreview(viewer, personalityId, { ...input, previewId: input.previewId }))
        : await screen(personalityId, input.message, prepare(viewer, personalityId, input, limit));
      return createChatRun({ db, clock, logger, responder, cache: contexts.cache, questions, moderation, replyTokens, inFlight }, viewer, ex, startedAt);
    },
  };
}

/** `work` once the limit, counted on its own beside it, has passed (its refusal answers first). */
async function afterLimit<T>(limit: PendingHit | undefined, work: Promise<T>): Promise<T> {
  work.catch(() => {}); // awaited below, after the limit's verdict
  await limit?.alone();
  return work;
}

export type ChatService = ReturnType<typeof createChatService>;
