// The built web app is sent compressed: the build writes .br and .gz beside each file
// (scripts/vite-precompress.ts) and the server picks the one the browser accepts.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressBuild } from '../../../scripts/vite-precompress';
import { startTestServer, type TestServer } from '../test-support/test-server';

const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;

function get(url: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
  });
}

describe('static files', () => {
  let server: TestServer;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Kindred</title><div id="root"></div>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), script);
    const totals = compressBuild(webRoot);
    expect(totals.files).toBe(1); // index.html is under the size worth compressing
    server = await startTestServer({ start: { webRoot } });
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends brotli to a browser that accepts it, gzip to one that accepts only gzip, and the plain file otherwise', async () => {
    const url = `${server.url}/assets/app-abc123.js`;
    const br = await get(url, 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.body.length).toBeLessThan(script.length / 3);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await get(url, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('never caches the page itself as immutable', async () => {
    const page = await get(`${server.url}/`, 'br');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('<div id="root">');
    expect(page.headers['cache-control'] ?? '').not.toContain('immutable');
  });
});
