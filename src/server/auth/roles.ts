// Admin is a row in user_roles. ADMIN_EMAILS grants it to a confirmed address, at sign-up (or when
// the confirmation link is opened) and at start-up; the
// `npm run admin` command grants or revokes it for an existing account.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { user } from '../db/schema/auth';
import { userRoles } from '../db/schema/roles';

export const ADMIN_ROLE = 'admin';

export async function isAdmin(db: Database, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: userRoles.id })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.role, ADMIN_ROLE)))
    .limit(1);
  return rows.length > 0;
}

export async function grantRoleIfListed(db: Database, userId: string, email: string, adminEmails: string[]) {
  if (adminEmails.includes(email.toLowerCase())) await grantAdmin(db, userId);
}

export async function grantAdmin(db: Database, userId: string): Promise<void> {
  await db.insert(userRoles).values({ userId, role: ADMIN_ROLE }).onConflictDoNothing();
}

export async function revokeAdmin(db: Database, userId: string): Promise<void> {
  await db.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.role, ADMIN_ROLE)));
}

/** At start-up: every existing confirmed account listed in ADMIN_EMAILS becomes admin. */
export async function grantListedAdmins(db: Database, adminEmails: string[]): Promise<number> {
  if (adminEmails.length === 0) return 0;
  const users = await db
    .select({ id: user.id })
    .from(user)
    .where(and(inArray(sql`lower(${user.email})`, adminEmails), eq(user.emailVerified, true)));
  for (const u of users) await grantAdmin(db, u.id);
  return users.length;
}

export async function findUserIdByEmail(db: Database, email: string): Promise<string | undefined> {
  const rows = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .limit(1);
  return rows[0]?.id;
}

/**
 * At start-up without a mail server: accounts still waiting for a confirmation link are confirmed
 * (none could ever arrive; accounts made before sign-up confirmed them itself are among them).
 */
export async function confirmAccountsWithoutMail(db: Database): Promise<number> {
  const rows = await db.update(user).set({ emailVerified: true }).where(eq(user.emailVerified, false)).returning({ id: user.id });
  return rows.length;
}
