import { z } from 'zod';
import { isBlank } from '../text/visible';

/**
 * A trimmed optional text field; blank becomes null (clears the field). Blank includes text of
 * invisible characters only (a zero-width space as an agent id is no agent id: ../text/visible.ts).
 */
export const optionalText = (max: number, label = 'Text') =>
  z
    .string()
    // Named, so a refusal says which field: "Description must be at most 5000 characters".
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => (isBlank(v) ? null : v.trim()))
    .nullable()
    .optional();

export const errorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

export const okSchema = z.object({ ok: z.literal(true) });
