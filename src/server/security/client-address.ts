// Who is on the other end: the socket's address, or, only when that socket is one of our own
// reverse proxies (TRUSTED_PROXIES), the nearest address in X-Forwarded-For that is not one of
// them. Anyone can send X-Forwarded-For, so it is never believed from anyone else; behind a proxy
// without this setting every visitor would share the proxy's address (and its rate limits).
import { isIPv6 } from 'node:net';
import { createMiddleware } from 'hono/factory';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from '../auth/session';

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) and plain IPv4 are one address. */
export function normalizeAddress(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

/**
 * The key a client is limited by: an IPv4 address, or an IPv6 address's /64 network. One IPv6
 * connection is routinely handed a whole /64 (2^64 addresses), so counting single IPv6 addresses
 * gave anyone on one a fresh allowance per request.
 */
export function limitKey(address: string | null): string {
  if (!address) return 'unknown';
  const a = address.split('%')[0]!; // a zone index (fe80::1%eth0) is not part of the network
  if (!isIPv6(a)) return a;
  const [head = '', tail = ''] = a.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 style) lies in the last 32 bits, outside the /64.
  const groups = a.includes('::')
    ? [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups]
    : headGroups;
  const network = groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16));
  return `${network.join(':')}::/64`;
}

export function resolveClientAddress(remote: string | null, forwardedFor: string | undefined, trusted: ReadonlySet<string>): string | null {
  if (!remote) return null;
  const socket = normalizeAddress(remote);
  if (!trusted.has(socket) || !forwardedFor) return socket;
  const hops = forwardedFor
    .split(',')
    .map((h) => normalizeAddress(h))
    .filter((h) => h.length > 0 && h.length <= 64);
  // Right to left: each proxy appends the address it received from; skip our own.
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.has(hops[i]!)) return hops[i]!;
  return hops[0] ?? socket;
}

function socketAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

export function clientAddressMiddleware(trustedProxies: string[]) {
  const trusted = new Set(trustedProxies.map(normalizeAddress));
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('clientIp', resolveClientAddress(socketAddress(c), c.req.header('x-forwarded-for'), trusted));
    await next();
  });
}

/** The key this request's client is limited by (see limitKey). */
export function clientLimitKey(c: Context): string {
  return limitKey(clientAddress(c));
}

/** The client's address as resolved for this request (falls back to the socket's). */
export function clientAddress(c: Context): string | null {
  const resolved = (c as Context<AppEnv>).get('clientIp');
  return resolved !== undefined ? resolved : socketAddress(c) && normalizeAddress(socketAddress(c)!);
}
