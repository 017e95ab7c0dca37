// The owner's sharing API: the sharing level, the people a personality is shared with, and the
// owner's request to make it public. Request and response shapes for server and web.
import { z } from 'zod';
import { limits, SHARING_TYPES } from '../limits';
import { messages } from '../messages';
import { hasVisibleText, isBlank } from '../text/visible';

export const PUBLIC_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type PublicRequestStatus = (typeof PUBLIC_REQUEST_STATUSES)[number];

/** PUT /api/personalities/{id}/sharing. Public is applied only for admins; others get 403. */
export const updateSharingSchema = z.strictObject({ sharingType: z.enum(SHARING_TYPES) });
export type UpdateSharingInput = z.input<typeof updateSharingSchema>;

export const sharingStateSchema = z.object({
  id: z.string(),
  sharingType: z.enum(SHARING_TYPES),
  isPublic: z.boolean(),
});
export const sharingStateResponseSchema = z.object({ personality: sharingStateSchema });
export type SharingState = z.infer<typeof sharingStateSchema>;

export const shareSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** The recipient's e-mail; "Unknown" when missing. */
  email: z.string(),
  createdAt: z.string(),
});
export type Share = z.infer<typeof shareSchema>;
export const shareListSchema = z.object({ shares: z.array(shareSchema) });

/** POST /api/personalities/{id}/shares. The UI ignores a blank input; the API answers 400. */
export const addShareSchema = z.strictObject({
  email: z
    .string({ error: messages.sharing.emailRequired })
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, messages.sharing.emailRequired)
        .max(limits.emailMax, messages.sharing.userNotFound)
        .refine(hasVisibleText, messages.sharing.emailRequired),
    ),
});
export type AddShareInput = z.input<typeof addShareSchema>;
/** The new share, and the level afterwards (adding to a private personality makes it shared). */
export const addShareResponseSchema = z.object({ share: shareSchema, sharingType: z.enum(SHARING_TYPES) });

export const publicRequestSchema = z.object({
  id: z.string(),
  status: z.enum(PUBLIC_REQUEST_STATUSES),
  requestMessage: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type PublicRequest = z.infer<typeof publicRequestSchema>;
/** The owner's latest request (pending, approved or rejected), or null when there is none. */
export const latestPublicRequestSchema = z.object({ request: publicRequestSchema.nullable() });
export const publicRequestResponseSchema = z.object({ request: publicRequestSchema });

/** POST /api/personalities/{id}/public-requests: an optional message to the admin, trimmed. */
export const createPublicRequestSchema = z.strictObject({
  message: z
    .string()
    .max(limits.requestMessageMax, `Message must be at most ${limits.requestMessageMax} characters`)
    .transform((v) => (isBlank(v) ? null : v.trim()))
    .nullable()
    .optional(),
});
export type CreatePublicRequestInput = z.input<typeof createPublicRequestSchema>;
