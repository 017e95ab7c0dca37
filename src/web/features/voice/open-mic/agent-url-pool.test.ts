// The pool of pre-opened agent connections (spec: at most 3, the oldest evicted): what is kept,
// what is fetched again, and that a URL is used once and not after it goes stale: the server checks
// who may talk with the personality when it issues a URL, so an old one is never used at Start.
import { describe, expect, it } from 'vitest';
import { AGENT_URL_FRESH_MS, AgentUrlPool } from './agent-url-pool';

function pool() {
  const fetched: string[] = [];
  let now = 0;
  const p = new AgentUrlPool(async (id) => {
    fetched.push(id);
    return { signedUrl: `wss://agents.test/${id}?n=${fetched.length}`, callToken: `token-${fetched.length}` };
  }, () => now);
  return { p, fetched, advance: (ms: number) => (now += ms) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('AgentUrlPool', () => {
  it('keeps three; a fourth evicts the oldest, and reopening a kept one fetches nothing', async () => {
    const { p, fetched } = pool();
    for (const id of ['a', 'b', 'c', 'd']) p.preload(`u:${id}`, id);
    await settle();
    expect(p.keys()).toEqual(['u:b', 'u:c', 'u:d']);
    p.preload('u:c', 'c');
    expect(fetched).toEqual(['a', 'b', 'c', 'd']);
    // Reopened: now the newest, so b is the next to go.
    expect(p.keys()).toEqual(['u:b', 'u:d', 'u:c']);
    p.preload('u:a', 'a');
    expect(p.keys()).toEqual(['u:d', 'u:c', 'u:a']);
    expect(fetched).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('is ready once the URL arrived; take() uses it once', async () => {
    const { p } = pool();
    p.preload('u:a', 'a');
    expect(p.ready('u:a')).toBe(false);
    await settle();
    expect(p.ready('u:a')).toBe(true);
    // The call's token comes with its URL (its lines count as credits under it).
    expect(await p.take('u:a')).toEqual({ signedUrl: 'wss://agents.test/a?n=1', callToken: 'token-1' });
    expect(await p.take('u:a')).toBeUndefined();
    expect(p.ready('u:a')).toBe(false);
  });

  it('does not hand out a URL past its freshness, and fetches a fresh one when reopened', async () => {
    const { p, fetched, advance } = pool();
    p.preload('u:a', 'a');
    await settle();
    advance(AGENT_URL_FRESH_MS);
    expect(p.ready('u:a')).toBe(false);
    p.preload('u:a', 'a');
    expect(fetched).toEqual(['a', 'a']);
    advance(AGENT_URL_FRESH_MS);
    expect(await p.take('u:a')).toBeUndefined();
  });

  it('a URL is fresh for 30 seconds: one fetched a minute before Start (the access check as old) is not used', async () => {
    expect(AGENT_URL_FRESH_MS).toBe(30_000);
    const { p, advance } = pool();
    p.preload('u:a', 'a');
    await settle();
    advance(29_000);
    expect(p.ready('u:a')).toBe(true);
    expect(await p.take('u:a')).toEqual({ signedUrl: 'wss://agents.test/a?n=1', callToken: 'token-1' });

    p.preload('u:a', 'a');
    await settle();
    advance(60_000);
    // Well within ElevenLabs' 15 minutes, but the server's check is a minute old: Start asks again.
    expect(p.ready('u:a')).toBe(false);
    expect(await p.take('u:a')).toBeUndefined();
    expect(p.keys()).toEqual([]);
  });

  it('forgets a failed fetch, so Start asks again', async () => {
    let fail = true;
    const p = new AgentUrlPool(async () => {
      if (fail) throw new Error('Agent not found');
      return { signedUrl: 'wss://agents.test/x' };
    });
    p.preload('u:x', 'x');
    await settle();
    expect(p.keys()).toEqual([]);
    fail = false;
    p.preload('u:x', 'x');
    await settle();
    expect(await p.take('u:x')).toEqual({ signedUrl: 'wss://agents.test/x' });
  });

  it('keys by person: another viewer never gets the URL fetched for someone else', async () => {
    const { p } = pool();
    p.preload('alice:a', 'a');
    await settle();
    expect(await p.take('bob:a')).toBeUndefined();
    expect(await p.take('alice:a')).toBeDefined();
  });
});
