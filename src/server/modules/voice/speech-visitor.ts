// Who is asking for speech, for the paid voices' daily character budget: counted as the rate
// limits count a caller (rate-limits.middleware.ts), a signed-in person by account wherever they
// are, anyone else by address (an IPv6 address by its /64, so one connection's many addresses are
// one visitor).
import type { Context } from 'hono';
import type { AppEnv } from '../../auth/session';
import { clientAddress, limitKey } from '../../security/client-address';
import type { Visitor } from './voice.service';

export function speechVisitor(c: Context<AppEnv>): Visitor {
  const viewer = c.get('viewer');
  const ip = clientAddress(c);
  return viewer ? { subject: `user:${viewer.id}`, userId: viewer.id, ipAddress: ip } : { subject: `ip:${limitKey(ip)}`, userId: null, ipAddress: ip };
}
