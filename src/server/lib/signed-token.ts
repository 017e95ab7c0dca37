// A payload the server hands out and later takes back unchanged: JSON, base64url, with an
// HMAC-SHA256 over it under a key derived from the auth secret and the token's purpose (a token
// made for one purpose is refused by another). Stateless, so every app process accepts it.
import crypto from 'node:crypto';

export function createTokenSigner<T>(secret: string, purpose: string) {
  const key = crypto.createHmac('sha256', secret).update(purpose).digest();
  const mac = (body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url');
  return {
    sign(payload: T): string {
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${mac(body)}`;
    },
    /** The payload when the token is one this signer made; undefined otherwise. */
    read(token: string): T | undefined {
      const dot = token.indexOf('.');
      if (dot <= 0) return undefined;
      const body = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1));
      const expected = Buffer.from(mac(body));
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
      try {
        return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
      } catch {
        return undefined;
      }
    },
  };
}
