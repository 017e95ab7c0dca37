// With SMTP_URL set, the confirmation e-mail really leaves through SMTP (a tiny SMTP server on
// loopback receives it) and sign-in waits until the link in it is opened.
import { eq } from 'drizzle-orm';
import { user } from '../db/schema/auth';
import { isAdmin } from './roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../test-support/test-server';

interface ReceivedMail {
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let server: TestServer;
const inbox: ReceivedMail[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'Kindred <kindred@example.com>', ADMIN_EMAILS: 'chief@example.com' } });
});

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** The mail is sent after the sign-up answer; wait for it (bounded). */
async function mailTo(address: string): Promise<ReceivedMail> {
  for (let i = 0; i < 200; i++) {
    const found = inbox.find((m) => m.to.includes(address));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no e-mail reached ${address}`);
}

/** Undoes quoted-printable (long lines such as the link are wrapped and escaped). */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

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
