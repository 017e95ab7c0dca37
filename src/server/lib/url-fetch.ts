// Fetches a page for URL import without becoming a way into the server's network (SSRF): only
// http(s), no credentials in the URL, every address a host resolves to must be public (checked at
// connect time, so DNS cannot change its answer between the check and the connection), redirects
// are followed by hand and checked the same way, and the whole fetch has a size and time cap.
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { isAllowedAddress } from './address-guard';

export type UrlFetchFailure = 'invalid' | 'blocked' | 'timeout' | 'too_large' | 'too_many_redirects' | 'http_error' | 'network';

export class UrlFetchError extends Error {
  constructor(
    readonly failure: UrlFetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'UrlFetchError';
  }
}

export interface UrlFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  allowLoopback: boolean;
  maxRedirects?: number;
}

export interface FetchedPage {
  url: string;
  contentType: string;
  body: Buffer;
}

function guardedLookup(allowLoopback: boolean): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err);
      // Refuse the host when any of its addresses is not public (no mixed-record tricks).
      if (addresses.length === 0 || addresses.some((a) => !isAllowedAddress(a.address, allowLoopback))) {
        return callback(new UrlFetchError('blocked', `blocked address for ${hostname}`));
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as LookupFunction;
}

function checkUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlFetchError('invalid', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlFetchError('invalid', 'only http and https');
  if (url.username || url.password) throw new UrlFetchError('invalid', 'credentials in URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !isAllowedAddress(host, allowLoopback)) throw new UrlFetchError('blocked', 'blocked address');
  return url;
}

export async function fetchPublicUrl(raw: string, opts: UrlFetchOptions): Promise<FetchedPage> {
  const deadline = Date.now() + opts.timeoutMs;
  const lookup = guardedLookup(opts.allowLoopback);
  let url = checkUrl(raw, opts.allowLoopback);
  for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
    const res = await requestOnce(url, lookup, deadline, opts.maxBytes);
    if ('location' in res) {
      let next: string;
      try {
        next = new URL(res.location, url).href;
      } catch {
        throw new UrlFetchError('http_error', 'bad redirect');
      }
      url = checkUrl(next, opts.allowLoopback);
      continue;
    }
    return { url: url.href, contentType: res.contentType, body: res.body };
  }
  throw new UrlFetchError('too_many_redirects', 'too many redirects');
}

type Hop = { location: string } | { contentType: string; body: Buffer };

function requestOnce(url: URL, lookup: LookupFunction, deadline: number, maxBytes: number): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new UrlFetchError('timeout', 'timed out'));
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const fail = (err: UrlFetchError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const req = client.request(
      url,
      {
        method: 'GET',
        lookup,
        headers: {
          'user-agent': 'Kindred-URL-Import/1.0',
          accept: 'text/html,application/xhtml+xml,text/plain,text/markdown,application/pdf;q=0.9,*/*;q=0.1',
          // Never ask for compression: the size cap then applies to what is parsed.
          'accept-encoding': 'identity',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          settled = true;
          clearTimeout(timer);
          req.destroy();
          return resolve({ location: res.headers.location });
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return fail(new UrlFetchError('http_error', `the server answered ${status}`));
        }
        const declared = Number(res.headers['content-length'] ?? '0');
        if (declared > maxBytes) return fail(new UrlFetchError('too_large', 'too large'));
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return fail(new UrlFetchError('too_large', 'too large'));
          parts.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(parts) });
        });
        res.on('error', () => fail(new UrlFetchError('network', 'the connection failed')));
      },
    );
    const timer = setTimeout(() => fail(new UrlFetchError('timeout', 'timed out')), remaining);
    req.on('error', (err) => {
      if (err instanceof UrlFetchError) return fail(err);
      const cause = (err as { cause?: unknown }).cause;
      if (cause instanceof UrlFetchError) return fail(cause);
      fail(new UrlFetchError('network', 'the server could not be reached'));
    });
    req.end();
  });
}
