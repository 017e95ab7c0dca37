import { z } from 'zod';

export const meSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), displayName: z.string() }).nullable(),
  isAdmin: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;
