// The sign-in guard counts wrong passwords only. "Email not verified" (403) comes after the
// password was checked and found right: it used to count as a failure, so a person retrying while
// waiting for their confirmation mail was locked out with a 429 after a few tries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from '../test-support/test-server';
import { startSmtpSink, type SmtpSink } from '../test-support/smtp-sink';
import { messages } from '../../shared/messages';
import { backoffSeconds } from './sign-in-guard';

const PASSWORD = 'correct-horse-1';
const BEFORE_BACKOFF = 3;

/** Time at a thousandth of real speed, so a 1 s back-off cannot run out between two requests. */
function slowClock() {
  const start = Date.now();
  return { now: () => new Date(start + (Date.now() - start) / 1000) };
}

let smtp: SmtpSink;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, SIGN_IN_FAILURES_BEFORE_BACKOFF: String(BEFORE_BACKOFF), TRUSTED_PROXIES: '127.0.0.1' },
    clock: slowClock(),
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const signInFrom = (client: TestClient, address: string, email: string, password: string) =>
  client.request('POST', '/api/auth/sign-in/email', { email, password }, { 'x-forwarded-for': address });

describe('sign-in guard and unconfirmed accounts', () => {
  it('"Email not verified" with the right password is not a failure: no back-off however often it is tried', async () => {
    const email = 'waiting@example.com';
    expect((await server.client().signUp(email, PASSWORD)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < BEFORE_BACKOFF + 3; i++) statuses.push((await signInFrom(server.client(), '203.0.113.40', email, PASSWORD)).status);
    expect(statuses).toEqual(Array(BEFORE_BACKOFF + 3).fill(403));
  });

  it('wrong passwords to an unconfirmed account still back off, and the wait is worded right', async () => {
    const email = 'guessed@example.com';
    expect((await server.client().signUp(email, PASSWORD)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < BEFORE_BACKOFF + 1; i++) statuses.push((await signInFrom(server.client(), '203.0.113.41', email, 'wrong-password')).status);
    expect(statuses).toEqual([...Array(BEFORE_BACKOFF).fill(401), 429]);
    const blocked = await signInFrom(server.client(), '203.0.113.41', email, 'wrong-password');
    expect(blocked.status).toBe(429);
    // The first back-off is 1 s: "1 second", not "1 seconds".
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect(blocked.body.error.message).toBe('Too many failed sign-in attempts. Please wait 1 second before trying again.');
  });
});

describe('back-off wording', () => {
  it('is singular for one and plural otherwise, in seconds under a minute and whole minutes from there', () => {
    expect(messages.auth.signInBackoff(1)).toBe('Too many failed sign-in attempts. Please wait 1 second before trying again.');
    expect(messages.auth.signInBackoff(2)).toBe('Too many failed sign-in attempts. Please wait 2 seconds before trying again.');
    expect(messages.auth.signInBackoff(59)).toMatch(/wait 59 seconds before/);
    expect(messages.auth.signInBackoff(60)).toMatch(/wait 1 minute before/);
    expect(messages.auth.signInBackoff(61)).toMatch(/wait 2 minutes before/);
    expect(messages.auth.signInBackoff(15 * 60)).toMatch(/wait 15 minutes before/);
    expect(backoffSeconds(BEFORE_BACKOFF, BEFORE_BACKOFF)).toBe(1);
  });
});
