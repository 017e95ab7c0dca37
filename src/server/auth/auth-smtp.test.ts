// With SMTP_URL set, the confirmation e-mail really leaves through SMTP (a tiny SMTP server on
// loopback receives it) and sign-in waits until the link in it is opened.
import { eq } from 'drizzle-orm';
import { user } from '../db/schema/auth';
import { isAdmin } from './roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailVerificationToken } from 'better-auth/api';
import { startTestServer, type TestServer } from '../test-support/test-server';
import { confirmationLink, decodeQuotedPrintable, startSmtpSink, type SmtpSink } from '../test-support/smtp-sink';
import { messages } from '../../shared/messages';

let smtp: SmtpSink;
let server: TestServer;
/** Confirmation mails (sign-in resends included) one address may be sent per hour. */
const MAILS_PER_HOUR = 5;

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Kindred <kindred@example.com>',
      ADMIN_EMAILS: 'chief@example.com',
      RATE_LIMIT_VERIFICATION_EMAIL_PER_HOUR: String(MAILS_PER_HOUR),
    },
  });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const mailTo = (address: string, count?: number) => smtp.mailTo(address, count);

describe('sign-up with SMTP configured', () => {
  it('sends the confirmation e-mail and allows sign-in only after the link is opened', async () => {
    const email = 'mailed@example.com';
    const client = server.client();
    const up = await client.signUp(email, 'secret-pass', 'Mailed');
    expect(up.status).toBe(200);
    // Mail is really sent: no session until the link is opened.
    expect(client.cookies.size).toBe(0);
    expect(up.body.token).toBeNull();
    expect((await client.get('/api/me')).body.user).toBeNull();
    expect(server.logs.some((l) => l.includes('accounts are confirmed automatically'))).toBe(false);

    const mail = await mailTo(email);
    const body = decodeQuotedPrintable(mail.raw);
    expect(body).toMatch(/^From: .*kindred@example\.com/m);
    expect(body).toMatch(/^Subject: Confirm your Kindred account/m);
    const link = body.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)?.[0];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${server.url}/`)).toBe(true);
    // Not written to the log when it can be delivered.
    expect(server.logs.some((l) => l.includes('SMTP_URL unset'))).toBe(false);

    const early = await server.client().signIn(email, 'secret-pass');
    expect(early.status).toBe(403);
    expect(early.body.code).toBe('EMAIL_NOT_VERIFIED');

    const opened = await server.client().raw(link!.slice(server.url.length));
    expect(opened.status).toBeLessThan(400);

    const later = server.client();
    expect((await later.signIn(email, 'secret-pass')).status).toBe(200);
    expect((await later.get('/api/me')).body.user).toMatchObject({ email, displayName: 'Mailed' });
  });

  it('makes an ADMIN_EMAILS address admin only once its link is opened (signing up with it proves nothing)', async () => {
    const email = 'chief@example.com';
    const impostor = server.client();
    expect((await impostor.signUp(email, 'secret-pass')).status).toBe(200);
    const [row] = await server.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    expect(await isAdmin(server.database.db, row!.id)).toBe(false);
    const link = decodeQuotedPrintable((await mailTo(email)).raw).match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0];
    expect((await server.client().raw(link.slice(server.url.length))).status).toBeLessThan(400);
    const owner = server.client();
    expect((await owner.signIn(email, 'secret-pass')).status).toBe(200);
    expect((await owner.get('/api/me')).body.isAdmin).toBe(true);
  });

  it('does not accept a tampered link', async () => {
    const email = 'tampered@example.com';
    expect((await server.client().signUp(email, 'secret-pass')).status).toBe(200);
    const link = decodeQuotedPrintable((await mailTo(email)).raw).match(/\/api\/auth\/verify-email\?token=([^&\s]+)\S*/)!;
    const forged = link[0].replace(link[1]!, `${link[1]!.slice(0, -4)}AAAA`);
    await server.client().raw(forged);
    expect((await server.client().signIn(email, 'secret-pass')).status).toBe(403);
  });
});

describe('a confirmation link that was not opened in time', () => {
  /** A link as the library makes it, already expired (signed with the server's secret). */
  async function expiredLinkFor(email: string, userId: string): Promise<string> {
    const secret = server.config.authSecret;
    if (!secret) throw new Error('the test server has no AUTH_SECRET');
    const token = await createEmailVerificationToken(secret, email, undefined, -60, { userId });
    return `/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent('/')}`;
  }

  it('says how long the link is valid', async () => {
    const email = 'validity@example.com';
    expect((await server.client().signUp(email, 'secret-pass')).status).toBe(200);
    expect(decodeQuotedPrintable((await mailTo(email)).raw)).toMatch(/valid for 24 hours/);
  });

  it('lands on /?error=TOKEN_EXPIRED, and signing in with the right password sends a new link that works', async () => {
    const email = 'late@example.com';
    const up = await server.client().signUp(email, 'secret-pass');
    expect(up.status).toBe(200);
    await mailTo(email);

    const opened = await server.client().raw(await expiredLinkFor(email, up.body.user.id));
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/?error=TOKEN_EXPIRED');

    const signIn = await server.client().signIn(email, 'secret-pass');
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe('EMAIL_NOT_VERIFIED');
    expect(signIn.body.message).toBe(messages.auth.emailNotVerifiedLinkSent(email));

    const fresh = confirmationLink(await mailTo(email, 2));
    expect(fresh).toBeDefined();
    expect((await server.client().raw(fresh!.slice(server.url.length))).status).toBeLessThan(400);
    const later = server.client();
    expect((await later.signIn(email, 'secret-pass')).status).toBe(200);
    expect((await later.get('/api/me')).body.user).toMatchObject({ email });
  });

  it('a wrong password sends nothing and says nothing about confirmation', async () => {
    const email = 'wrong-pass@example.com';
    expect((await server.client().signUp(email, 'secret-pass')).status).toBe(200);
    await mailTo(email);
    const signIn = await server.client().signIn(email, 'not-the-password');
    expect(signIn.status).toBe(401);
    expect(signIn.body.message).not.toMatch(/confirm|verified/i);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mailsTo(email)).toHaveLength(1);
  });

  it('sends at most the hourly budget of links to one address (shared with send-verification-email), then says one was sent recently', async () => {
    const email = 'impatient@example.com';
    expect((await server.client().signUp(email, 'secret-pass')).status).toBe(200);
    await mailTo(email);
    // One through the resend endpoint, the rest through sign-in: one budget.
    expect((await server.client().post('/api/auth/send-verification-email', { email })).status).toBe(200);
    await mailTo(email, 2);
    for (let i = 2; i <= MAILS_PER_HOUR; i++) {
      const signIn = await server.client().signIn(email, 'secret-pass');
      expect(signIn.body.message).toBe(messages.auth.emailNotVerifiedLinkSent(email));
      await mailTo(email, i + 1);
    }
    const spent = await server.client().signIn(email, 'secret-pass');
    expect(spent.status).toBe(403);
    expect(spent.body.code).toBe('EMAIL_NOT_VERIFIED');
    expect(spent.body.message).toBe(messages.auth.emailNotVerifiedLinkRecent(email));
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mailsTo(email)).toHaveLength(MAILS_PER_HOUR + 1);
  });
});
