// Saved conversations of signed-in people: list per personality, read with messages, create,
// rename, delete, and the starters/greeting anyone who may chat can read. Everything checks
// the personality's visibility and the conversation's owner in SQL (404 otherwise).
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { truncate } from '../../../shared/text/cut';
import type { ChatMessage, Conversation, ConversationListQuery, ConversationSummary, MessageKind } from '../../../shared/schemas/conversations';
import type { ChatResponder } from '../../ai/providers';
import { isUuid, loadVisiblePersonality } from '../personalities/personality-access';
import type { PersonalityRow } from '../personalities/personalities.repository';
import * as repo from './conversations.repository';
import type { PersonaContexts } from './persona-context';

export const NEW_CONVERSATION_TITLE = 'New conversation';
const TITLE_FROM_MESSAGE_MAX = 60;

export function titleFromMessage(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return truncate(oneLine, TITLE_FROM_MESSAGE_MAX);
}

export function toMessageDto(m: repo.MessageRow): ChatMessage {
  return {
    id: m.id,
    sender: m.role === 'user' ? 'user' : 'personality',
    content: m.content,
    timestamp: m.createdAt.toISOString(),
    kind: m.kind as MessageKind,
    documentReferences: m.documentReferences ?? [],
  };
}

function toSummary(row: repo.ConversationSummaryRow): ConversationSummary {
  return {
    id: row.id,
    personalityId: row.personalityId,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    messageCount: Number(row.messageCount),
  };
}

export function createConversationService(deps: {
  db: Database;
  clock: Clock;
  contexts: PersonaContexts;
  responder: ChatResponder;
  /** Starts loading the asker's retrieval indexes in the background (not awaited). */
  warmRetrieval?: (scope: { personalityId: string; viewerId: string | null }) => void;
}) {
  const { db, clock, contexts, responder } = deps;

  async function loadOwned(viewer: Viewer, id: string): Promise<repo.ConversationSummaryRow> {
    const row = isUuid(id) ? await repo.findOwned(db, id, viewer.id) : undefined;
    if (!row) throw new AppError('NOT_FOUND', messages.chat.conversationNotFound);
    return row;
  }

  return {
    loadOwned,

    async starters(viewer: Viewer | null, personalityId: string) {
      const personality = await loadVisiblePersonality(db, personalityId, viewer?.id ?? null);
      // The chat is opening: its first question should not wait for the documents' indexes.
      deps.warmRetrieval?.({ personalityId: personality.id, viewerId: viewer?.id ?? null });
      const { context } = await contexts.get(personality);
      return { starters: context.starters, greeting: context.greeting, responder: { mode: responder.mode, label: responder.label } };
    },

    /** One page, most recently active first; one row past the page tells whether an older page exists. */
    async list(viewer: Viewer, personalityId: string, page: ConversationListQuery): Promise<{ conversations: ConversationSummary[]; hasMore: boolean }> {
      await loadVisiblePersonality(db, personalityId, viewer.id);
      const rows = await repo.listOwned(db, viewer.id, personalityId, { limit: page.limit + 1, offset: page.offset });
      return { conversations: rows.slice(0, page.limit).map(toSummary), hasMore: rows.length > page.limit };
    },

    /** A new conversation opening with the personality's greeting (given by a caller that has it). */
    async create(viewer: Viewer, personality: PersonalityRow, title?: string, greeting?: string): Promise<repo.ConversationRow> {
      return repo.insertConversation(db, {
        userId: viewer.id,
        personalityId: personality.id,
        title: title ?? NEW_CONVERSATION_TITLE,
        greeting: greeting ?? (await contexts.get(personality)).context.greeting,
        now: clock.now(),
      });
    },

    async createForPersonality(viewer: Viewer, personalityId: string, title?: string): Promise<Conversation> {
      const personality = await loadVisiblePersonality(db, personalityId, viewer.id);
      const created = await this.create(viewer, personality, title);
      return this.get(viewer, created.id);
    },

    async get(viewer: Viewer, id: string): Promise<Conversation> {
      const row = await loadOwned(viewer, id);
      const list = await repo.listMessages(db, row.id);
      return { ...toSummary(row), messages: list.map(toMessageDto) };
    },

    async rename(viewer: Viewer, id: string, title: string): Promise<Conversation> {
      await loadOwned(viewer, id);
      if (!(await repo.renameOwned(db, id, viewer.id, title, clock.now()))) {
        throw new AppError('NOT_FOUND', messages.chat.conversationNotFound);
      }
      return this.get(viewer, id);
    },

    async remove(viewer: Viewer, id: string): Promise<void> {
      if (!isUuid(id) || !(await repo.deleteOwned(db, id, viewer.id))) {
        throw new AppError('NOT_FOUND', messages.chat.conversationNotFound);
      }
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
