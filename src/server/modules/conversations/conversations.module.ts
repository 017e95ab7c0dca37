// Wires the conversation domain from the app's dependencies: responder (providers.ts chooses),
// retriever, context cache, services and routers. app.ts mounts the routers; start.ts preloads.
import type { VectorStore } from '../../db/embeddings-schema';
import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import type { Viewer } from '../../auth/session';
import { createChatResponder, createEmbeddings, type ChatResponder } from '../../ai/providers';
import { createQuestionService } from '../questions/questions.service';
import { questionRoutes } from '../questions/questions.routes';
import { createRouter } from '../../lib/openapi';
import { createContextCache } from './context-cache';
import { createDocumentEvents } from '../documents/documents-events';
import { createPersonaContexts } from './persona-context';
import { createRetriever, type VectorSearch } from './retrieval';
import { createVectorIndex } from './vector-index';
import { oneWarmAtATime } from './warm-gate';
import { hasEmbeddings } from '../documents/chunk-search.repository';
import { createPreviewSigner } from './preview-token';
import { createConversationService } from './conversations.service';
import { createChatService } from './chat.service';
import { chatRoutes } from './chat.routes';
import { createInFlight } from '../../lib/in-flight';
import { conversationRoutes, personalityConversationRoutes } from './conversations.routes';
import { systemOptimizationRoutes } from './system-optimizations.routes';
import type { ModerationService } from '../moderation/moderation.service';
import type { ReplyTokens } from '../moderation/reply-token';

export interface ConversationsModuleDeps {
  config: AppConfig;
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Signs prompt previews (a key is derived from it). */
  secret: string;
  /** How the database keeps vectors (pgvector, or float32 scored in the app): retrieval is hybrid either way, with the embedded model unless EMBEDDING_MODEL says otherwise. */
  vectorStore: VectorStore;
  /** Overrides the vector side (tests); by default the bit index over the stored vectors of the configured embedding model. */
  vectors?: VectorSearch;
  responder?: ChatResponder;
  /** Checks messages and replies (issue 15). */
  moderation?: ModerationService;
  /** Signs completed replies, so a report can show the personality said them. */
  replyTokens?: ReplyTokens;
}

/** A well-formed id that no personality has (the start-up search finds nothing with it). */
const NO_PERSONALITY = '00000000-0000-4000-8000-000000000000';

export function createConversationsModule(deps: ConversationsModuleDeps) {
  const { db, clock, logger } = deps;
  const responder = deps.responder ?? createChatResponder(deps.config);
  const embeddings = createEmbeddings(deps.config);
  const vectors = deps.vectors ?? (embeddings ? createVectorIndex(db, deps.vectorStore, embeddings) : undefined);
  const retriever = createRetriever(db, vectors, logger, { queryEmbeddingTimeoutMs: deps.config.llm.queryEmbeddingTimeoutMs });
  let warming: Promise<void> = Promise.resolve();
  const cache = createContextCache({ clock });
  // Any change to a personality's documents (added, made private, held, released, deleted; from
  // any process) may change its starters, which name its public documents.
  const stopForgetting = createDocumentEvents().subscribeAll((personalityId) => cache.forget(personalityId));
  const contexts = createPersonaContexts(db, cache);
  const questions = createQuestionService(db, clock, logger);
  // Set at shutdown: a warm-up cut short by the database closing is no fault to report.
  let closing = false;
  const conversations = createConversationService({
    db,
    clock,
    contexts,
    responder,
    // A chat being opened (its starters asked for): the asker's indexes load while they type,
    // one library at a time however fast chats are opened (warm-gate.ts).
    warmRetrieval: oneWarmAtATime(
      (scope) => retriever.warm(scope),
      (err) => {
        if (!closing) logger.warn('retrieval warm-up failed', err instanceof Error ? err.message : err);
      },
    ),
  });
  // Replies still being saved when the server stops: it waits for them before closing the database.
  const inFlight = createInFlight();
  const chat = createChatService({
    inFlight,
    db,
    clock,
    logger,
    responder,
    retriever,
    contexts,
    conversations,
    questions,
    previews: createPreviewSigner(deps.secret),
    moderation: deps.moderation,
    replyTokens: deps.replyTokens,
  });

  return {
    responder,
    retriever,
    cache,
    /** The question log, for the voice agent's lines (logged as chat questions are). */
    questions,
    /** Mount at /api/personalities: starters, chat, preview, conversation list/create, questions. */
    personalityRoutes: createRouter()
      .route('/', chatRoutes(chat, conversations))
      .route('/', personalityConversationRoutes(conversations))
      .route('/', questionRoutes(questions)),
    /** Mount at /api/conversations. */
    conversationRoutes: conversationRoutes(conversations),
    /** Mount at /api/admin/system-optimizations. */
    systemOptimizationRoutes: systemOptimizationRoutes(cache, responder, retriever),
    /**
     * Start-up: warm the context cache with the first public personalities, then, in the
     * background, their full-text index (a large library takes a second or so to load, which
     * their first visitor would otherwise wait for). Never throws.
     */
    async preload(): Promise<void> {
      try {
        const { loaded, personalityIds } = await contexts.preload();
        logger.info(`chat: ${responder.mode === 'offline' ? 'offline responder' : `model ${responder.label}`}, ${retriever.mode} retrieval, ${loaded} personality context(s) preloaded`);
        // The embedded model loads in its thread in the background when there are vectors to search
        // (an empty install never loads it: its ~230 MB only once documents are embedded).
        if (vectors && embeddings && 'warm' in embeddings && (await hasEmbeddings(db, embeddings.model))) {
          void (embeddings as { warm(): Promise<void> }).warm().catch((err: unknown) => logger.warn('embedding model warm-up failed', err instanceof Error ? err.message : err));
        }
        // One question's full-text work, on no personality: the database's first text search (its
        // stemming dictionary, the statements) is paid here, not by the first person to ask.
        const firstSearch = retriever.search({ personalityId: NO_PERSONALITY, viewerId: null, text: 'How are you today?', limit: 1 });
        warming = Promise.all([firstSearch, ...personalityIds.map((personalityId) => retriever.warm({ personalityId, viewerId: null }))]).then(
          () => undefined,
          (err: unknown) => logger.warn('full-text index preload failed', err instanceof Error ? err.message : err),
        );
      } catch (err) {
        logger.warn('context cache preload failed', err instanceof Error ? err.message : err);
      }
    },
    /**
     * Open mic's call start: one preview of a greeting runs what a first question runs before its
     * first token (access check, moderation, retrieval with this personality's index, the persona
     * from the context cache), so the call's first turn finds them ready. Nothing is saved.
     */
    warm: async (viewer: Viewer | null, personalityId: string): Promise<void> => {
      await chat.preview(viewer, personalityId, { message: 'Hello, how are you today?' });
    },
    /** The chat's start (access already checked by the caller): open mic's voice turn runs its exchange. */
    startChat: chat.start,
    /** Settles when the background preloading has (for a clean shutdown). */
    settled: () => warming,
    /** Unsubscribes from the invalidation bus. */
    close: () => {
      closing = true;
      stopForgetting();
    },
    /** Waits (at most `timeoutMs`) for replies still being saved; true when none is left. */
    drain: (timeoutMs: number) => inFlight.drain(timeoutMs),
    /** Stops replies still streaming (shutdown): each keeps what was said, as a stopped reply. */
    stopReplies: () => inFlight.stopAll(),
  };
}
