import { pgTable, text, uuid, timestamp, integer, uniqueIndex, index } from 'drizzle-orm/pg-core';

// Counters live in the database so every app process sees the same limits (design.md, scale-out).
// `subject` is what is limited: a user id when signed in, else the client address.
export const apiRateLimits = pgTable(
  'api_rate_limits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpoint: text('endpoint').notNull(),
    subject: text('subject').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    requestCount: integer('request_count').notNull().default(0),
    userId: text('user_id'),
    ipAddress: text('ip_address'),
  },
  (t) => [
    uniqueIndex('api_rate_limits_window_unique').on(t.endpoint, t.subject, t.windowStart),
    index('api_rate_limits_window_idx').on(t.windowStart),
  ],
);
