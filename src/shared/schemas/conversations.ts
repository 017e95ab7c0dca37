// Text conversation contract (issue 5): chat, prompt preview, saved conversations, starters,
// the owner's question log and the admin's context-cache figures. The chat reply itself is an
// SSE stream whose events are described in ../chat-stream.ts.
import { z } from 'zod';
import { pronunciationReportSchema } from './pronunciation';
import { limits } from '../limits';
import { messages } from '../messages';
import { hasVisibleText } from '../text/visible';

// NFC: documents are stored composed, and a question typed with combining accents (macOS,
// Vietnamese keyboards) must read as the same words, in retrieval and in the saved log.
const chatText = z
  .string({ error: messages.chat.messageRequired })
  .transform((v) => v.normalize('NFC').trim())
  .pipe(
    z
      .string()
      .min(1, messages.chat.messageRequired)
      .max(limits.chatMessageMax, messages.chat.messageTooLong(limits.chatMessageMax))
      // Blank is what a person sees: a message of zero-width or direction characters is empty.
      .refine(hasVisibleText, messages.chat.messageRequired),
  );

/** A passage a reply drew on: "{file name} (chunk N)" and how well it matched (0..1). */
export const documentReferenceSchema = z.object({
  fileName: z.string(),
  similarity: z.number().min(0).max(1),
  documentId: z.string(),
  chunkIndex: z.number().int(),
});
export type DocumentReference = z.infer<typeof documentReferenceSchema>;

export const MESSAGE_KINDS = ['message', 'greeting', 'fallback', 'stopped', 'cut_off'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * Replies a model wrote, whole or in part, that go back to it as the conversation's history: not a
 * greeting, nor a fallback line the model never said.
 */
export function isModelHistory(kind: string): boolean {
  return kind === 'message' || kind === 'stopped' || kind === 'cut_off';
}

/** The spec's Chat message. kind: greeting (never sent back to the model), fallback (in-character
 * reply added after a model failure), stopped (a reply the person stopped part-way), cut_off (a
 * reply the model broke off part-way: it failed or fell silent; the words it sent are kept). */
export const chatMessageSchema = z.object({
  id: z.string(),
  sender: z.enum(['user', 'personality']),
  content: z.string(),
  timestamp: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  documentReferences: z.array(documentReferenceSchema),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** History an anonymous visitor's browser sends (its conversation lives in sessionStorage). */
export const historyItemSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(limits.chatMessageMax * 4),
  /** The greeting is dropped by the server whatever the client says; marking it helps. */
  isGreeting: z.boolean().optional(),
});
export type HistoryItem = z.infer<typeof historyItemSchema>;

const conversationId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'conversationId: not a valid id');

const history = z.array(historyItemSchema).max(limits.chatHistoryRequestMaxItems).optional();

export const chatRequestSchema = z.strictObject({
  message: chatText,
  /** A signed-in person's saved conversation; omitted: a new one is created (signed in) or none (anonymous). */
  conversationId: conversationId.optional(),
  /** Anonymous visitors only; ignored when a saved conversation is used. */
  conversationHistory: history,
  /** From the prompt preview: the server sends exactly the previewed prompt. */
  previewId: z.string().max(200_000).optional(),
  /** Phonetic mode: the report of the spoken message (from the transcribe route), for the coach's reply. */
  pronunciationReport: pronunciationReportSchema.optional(),
});
export type ChatRequest = z.input<typeof chatRequestSchema>;

export const previewRequestSchema = z.strictObject({
  message: chatText,
  conversationId: conversationId.optional(),
  conversationHistory: history,
});
export type PreviewRequest = z.input<typeof previewRequestSchema>;

export const modelMessageSchema = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });
export type ModelMessage = z.infer<typeof modelMessageSchema>;

/** The spec's Prompt preview response, plus the id "Send Prompt" passes back. */
export const previewResponseSchema = z.object({
  previewId: z.string(),
  expiresAt: z.string(),
  systemPrompt: z.string(),
  documents: z.array(documentReferenceSchema),
  messagesArray: z.array(modelMessageSchema),
});
export type PromptPreview = z.infer<typeof previewResponseSchema>;

export const responderSchema = z.object({
  /** offline: the embedded responder (the UI labels it); model: a configured language model. */
  mode: z.enum(['offline', 'model']),
  label: z.string(),
});

export const startersResponseSchema = z.object({
  starters: z.array(z.string()),
  greeting: z.string(),
  responder: responderSchema,
});

const title = z
  .string({ error: messages.chat.titleRequired })
  .transform((v) => v.trim())
  .pipe(z.string().min(1, messages.chat.titleRequired).max(limits.conversationTitleMax, `Title must be at most ${limits.conversationTitleMax} characters`).refine(hasVisibleText, messages.chat.titleRequired));

export const createConversationSchema = z.strictObject({ title: title.optional() });
export const renameConversationSchema = z.strictObject({ title });

export const conversationSummarySchema = z.object({
  id: z.string(),
  personalityId: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationSchema = conversationSummarySchema.extend({ messages: z.array(chatMessageSchema) });
export type Conversation = z.infer<typeof conversationSchema>;

/** The saved-conversation picker shows this many at a time ("Show older conversations" for more). */
export const CONVERSATION_PAGE_SIZE = 50;
export const CONVERSATION_PAGE_MAX = 100;

/** ?limit=&offset= for a person's saved conversations with a personality (most recently active first). */
export const conversationListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(CONVERSATION_PAGE_MAX).default(CONVERSATION_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ConversationListQuery = z.infer<typeof conversationListQuerySchema>;

/** One page of saved conversations; hasMore: an older page exists (ask again at offset + limit). */
export const conversationListSchema = z.object({ conversations: z.array(conversationSummarySchema), hasMore: z.boolean() });
export const conversationResponseSchema = z.object({ conversation: conversationSchema });

export const questionSchema = z.object({
  id: z.string(),
  questionText: z.string(),
  askedAt: z.string(),
  /** Asked by a signed-in person ("Registered User" badge); who it was is not disclosed. */
  isRegisteredUser: z.boolean(),
});
export type PersonalityQuestion = z.infer<typeof questionSchema>;
export const questionListSchema = z.object({ questions: z.array(questionSchema) });

/** `before`: an ISO date-time (or a date, read as midnight UTC); questions strictly earlier go. */
export const deleteQuestionsQuerySchema = z.object({ before: z.string().optional() });
export const deleteQuestionsResponseSchema = z.object({ deleted: z.number().int() });

const ttftSchema = z.object({ count: z.number().int(), p50Ms: z.number().nullable(), p95Ms: z.number().nullable(), meanMs: z.number().nullable() });
export const systemOptimizationsSchema = z.object({
  contextCache: z.object({
    entries: z.number().int(),
    maxEntries: z.number().int(),
    ttlSeconds: z.number().int(),
    preloaded: z.number().int(),
    hits: z.number().int(),
    misses: z.number().int(),
    /** hits / (hits + misses), null before the first chat. */
    hitRate: z.number().nullable(),
  }),
  /** Server time from request to first streamed word, split by whether the context came from the cache. */
  timeToFirstToken: z.object({ withCache: ttftSchema, withoutCache: ttftSchema }),
  responder: responderSchema,
  retrieval: z.object({ mode: z.enum(['full-text', 'hybrid']) }),
});
export type SystemOptimizations = z.infer<typeof systemOptimizationsSchema>;
