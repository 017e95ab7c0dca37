import { pgTable, text, uuid, timestamp, unique } from 'drizzle-orm/pg-core';
import { user } from './auth';

// The spec's user_roles: a row with role 'admin' makes a user an admin.
export const userRoles = pgTable(
  'user_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('user_roles_user_role_unique').on(t.userId, t.role)],
);
