import { z } from 'zod';

/** A trimmed optional text field; blank becomes null (clears the field). */
export const optionalText = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .transform((v) => (v.trim() === '' ? null : v.trim()))
    .nullable()
    .optional();

export const errorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

export const okSchema = z.object({ ok: z.literal(true) });
