// The admin dashboard's governance API: summary counts, public requests, public personalities
// (revert to private) and the library order of public personalities.
import { z } from 'zod';
import { SHARING_TYPES } from '../limits';
import { PUBLIC_REQUEST_STATUSES } from './sharing';

export const adminSummarySchema = z.object({ publicCount: z.number().int(), pendingCount: z.number().int() });
export type AdminSummary = z.infer<typeof adminSummarySchema>;

export const adminPublicRequestSchema = z.object({
  id: z.string(),
  /** null once the personality has been deleted. */
  personalityId: z.string().nullable(),
  /** "[Deleted Personality]" when the personality is gone. */
  personalityName: z.string(),
  personalityDeleted: z.boolean(),
  /** The name when the request was made (kept after deletion, for context). */
  personalityNameAtRequest: z.string().nullable(),
  description: z.string().nullable(),
  behaviorInstructions: z.string().nullable(),
  /** "[Unknown User]" when the requester's account is gone. */
  requesterEmail: z.string(),
  requestMessage: z.string().nullable(),
  status: z.enum(PUBLIC_REQUEST_STATUSES),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type AdminPublicRequest = z.infer<typeof adminPublicRequestSchema>;

// ---- pages of the pending lists (public requests, content flags) ----

/** A page cursor: the last row's created_at (UTC, microseconds) and id, as the server gave it. */
const PAGE_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function parsePageCursor(cursor: string): { at: string; id: string } {
  const m = PAGE_CURSOR.exec(cursor);
  if (!m) throw new Error('not a page cursor');
  return { at: m[1]!, id: m[2]! };
}

/** ?before=: the next page of pending items, older than the last one shown (its nextCursor). */
export const pendingPageQuerySchema = z.object({
  before: z.string().regex(PAGE_CURSOR, 'Unknown page cursor').optional(),
});

/**
 * A page of pending requests (newest first) with the true number pending, and the 5 latest
 * reviewed ones (newest review first). nextCursor asks for the page after this one (null: none).
 */
export const adminPublicRequestListSchema = z.object({
  pending: z.array(adminPublicRequestSchema),
  pendingTotal: z.number().int(),
  nextCursor: z.string().nullable(),
  recent: z.array(adminPublicRequestSchema),
});
export type AdminPublicRequestList = z.infer<typeof adminPublicRequestListSchema>;
export const adminPublicRequestResponseSchema = z.object({ request: adminPublicRequestSchema });

export const adminPersonalitySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The creator's e-mail; "Unknown" when missing. */
  creatorEmail: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  sharingType: z.enum(SHARING_TYPES),
  displayOrder: z.number().int().nullable(),
  /** It has an avatar image (a PNG character card's picture), served at /api/personalities/{id}/avatar. */
  hasAvatar: z.boolean(),
});
export type AdminPersonality = z.infer<typeof adminPersonalitySchema>;
export const adminPersonalityListSchema = z.object({ personalities: z.array(adminPersonalitySchema) });
export const adminPersonalityResponseSchema = z.object({ personality: adminPersonalitySchema });

/** PUT /api/admin/personalities/order: every public personality's order, saved together. */
export const updateOrderSchema = z.strictObject({
  updates: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Unknown personality id'),
        displayOrder: z.number().int('Order must be a whole number').min(0, 'Order must be 0 or more').max(1_000_000),
      }),
    )
    .max(10_000),
});
export type UpdateOrderInput = z.input<typeof updateOrderSchema>;
export const updateOrderResponseSchema = z.object({ updated: z.number().int() });
