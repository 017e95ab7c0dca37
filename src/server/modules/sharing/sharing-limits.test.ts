// Creating personalities and adding people to shares are counted per user each hour: one account
// made 300 personalities in a minute and shared each with one person, whose library then took 14 s
// to show (audit X). Character-card imports count as uploads instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, libraryNames, shareWith } from './sharing.test-support';

const clock = { at: Date.UTC(2031, 4, 1, 9, 0, 0), now: () => new Date(clock.at) };
const CREATE_MAX = 3;
const SHARE_MAX = 2;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock, env: { RATE_LIMIT_PERSONALITIES_PER_HOUR: String(CREATE_MAX), RATE_LIMIT_SHARES_PER_HOUR: String(SHARE_MAX) } });
});
afterAll(async () => {
  await server?.close();
});

describe('creation and sharing limits', () => {
  it('refuses a user past the hour’s personalities (with Retry-After), others unaffected, and lets them go on next hour', async () => {
    const busy = await server.user();
    const ids = [];
    for (let i = 0; i < CREATE_MAX; i++) ids.push(await createPersonality(busy, `Burst ${i}`));
    const refused = await busy.post('/api/personalities', { name: 'One too many' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', message: messages.errors.rateLimited });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await libraryNames(busy)).not.toContain('One too many');
    // Editing what exists is not creating.
    expect((await busy.patch(`/api/personalities/${ids[0]}`, { description: 'still editable' })).status).toBe(200);
    await createPersonality(await server.user(), 'Someone else');

    clock.at += 60 * 60 * 1000;
    await createPersonality(busy, 'Next hour');
  });

  it('refuses a user past the hour’s shares; the people already added keep it', async () => {
    const owner = await server.user();
    const id = await createPersonality(owner, 'Much Shared');
    const friends = await Promise.all([server.user(), server.user(), server.user()]);
    for (const f of friends.slice(0, SHARE_MAX)) await shareWith(owner, id, f.email);
    const refused = await owner.post(`/api/personalities/${id}/shares`, { email: friends[SHARE_MAX]!.email });
    expect(refused.status).toBe(429);
    expect(await libraryNames(friends[SHARE_MAX]!)).not.toContain('Much Shared');
    for (const f of friends.slice(0, SHARE_MAX)) expect(await libraryNames(f)).toContain('Much Shared');

    clock.at += 60 * 60 * 1000;
    await shareWith(owner, id, friends[SHARE_MAX]!.email);
  });
});
