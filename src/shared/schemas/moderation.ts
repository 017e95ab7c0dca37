// Content flags for the admin "Content Moderation" tab, the review action and people's reports.
import { z } from 'zod';
import { hasVisibleText } from '../text/visible';
import { optionalText } from './common';

export const flagSchema = z.object({
  id: z.string(),
  /** null once the personality has been deleted (its flags are kept). */
  personalityId: z.string().nullable(),
  /** "[Deleted Personality]" when the personality is gone. */
  personalityName: z.string(),
  personalityDeleted: z.boolean(),
  /** The personality's name when the flag was filed (kept after deletion, for context). */
  personalityNameAtFlag: z.string(),
  personalityIsPublic: z.boolean(),
  documentFileName: z.string().nullable(),
  /** The flagged document was deleted since (documentFileName is the name it had). */
  documentDeleted: z.boolean(),
  /** The reporter's display name, or e-mail without one; null for the classifier or a signed-out visitor. */
  reporter: z.string().nullable(),
  source: z.enum(['message', 'reply', 'document', 'report']),
  flagTypes: z.array(z.string()),
  confidence: z.number(),
  excerpt: z.string(),
  reportReason: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'rejected']),
  adminNotes: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ContentFlag = z.infer<typeof flagSchema>;

/**
 * A page of pending flags (newest first) with the true number pending, and the 10 most recently
 * reviewed. nextCursor asks for the page after this one (null: none); ?before= takes it.
 */
export const flagListSchema = z.object({
  pending: z.array(flagSchema),
  pendingTotal: z.number().int(),
  nextCursor: z.string().nullable(),
  recent: z.array(flagSchema),
});
export type ContentFlagList = z.infer<typeof flagListSchema>;

export const reviewFlagSchema = z.object({
  status: z.enum(['approved', 'rejected']),
  adminNotes: optionalText(2000, 'Admin notes'),
});
export const flagResponseSchema = z.object({ flag: flagSchema });

export const reportSchema = z.object({
  /** The reported reply's text (stored as an excerpt). */
  content: z.string().trim().min(1, 'Nothing to report').max(20_000).refine(hasVisibleText, 'Nothing to report'),
  reason: optionalText(1000, 'Reason'),
  /** A signed-in person's saved reply: its text is taken from the conversation. */
  messageId: z.string().max(100).optional(),
  /** The token a streamed reply came with: it vouches that the personality said `content`. */
  replyToken: z.string().max(2000).optional(),
});
export const reportResponseSchema = z.object({ ok: z.literal(true) });

/** The flag type marking a report whose text could not be matched to a reply the personality gave. */
export const UNVERIFIED_REPORT = 'unverified';

/** Flag types shown with a destructive badge (spec section 9). */
export function isSevereFlagType(types: string[]): boolean {
  return types.some((t) => /adult|sexual|harassment|hate|violence/.test(t));
}
