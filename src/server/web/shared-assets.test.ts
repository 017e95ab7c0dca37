// A rolling upgrade: two processes of different builds behind one site, sharing object storage
// (a real s3rver on loopback). A page from either asks either for its scripts: each process
// answers the other build's assets from the shared storage. A missing asset is a 404, never the
// page (a script answered with HTML is refused by the browser: a blank page).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../../../scripts/lib/s3-test-server';
import { startTestServer, type TestServer } from '../test-support/test-server';

function build(name: string, asset: string, body: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `kindred-web-${name}-`));
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), `<!doctype html><title>${name}</title><script type="module" src="/assets/${asset}"></script>`);
  fs.writeFileSync(path.join(root, 'assets', asset), body);
  return root;
}

let s3: S3TestServer;
let oldProcess: TestServer;
let newProcess: TestServer;
let alone: TestServer;
const roots: string[] = [];

beforeAll(async () => {
  s3 = await startS3TestServer();
  roots.push(build('old', 'index-OLDbuild.js', 'export const release = "old";\n'), build('new', 'index-NEWbuild.js', 'export const release = "new";\n'));
  [oldProcess, newProcess] = await Promise.all([
    startTestServer({ env: s3.env, start: { webRoot: roots[0] } }),
    startTestServer({ env: s3.env, start: { webRoot: roots[1] } }),
  ]);
  roots.push(build('alone', 'index-ALONE.js', 'export {};\n'));
  alone = await startTestServer({ start: { webRoot: roots[2] } });
}, 60_000);
afterAll(async () => {
  await Promise.all([oldProcess?.close(), newProcess?.close(), alone?.close()]);
  await s3?.close();
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

describe("another release's assets", () => {
  it('are served by every process sharing the storage, as scripts with immutable caching', async () => {
    for (const [server, name, release] of [
      [newProcess, 'index-OLDbuild.js', 'old'],
      [oldProcess, 'index-NEWbuild.js', 'new'],
    ] as const) {
      const res = await fetch(`${server.url}/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(await res.text()).toBe(`export const release = "${release}";\n`);
    }
  });

  it('are a 404 when no build has them, never the page', async () => {
    for (const server of [newProcess, alone]) {
      const res = await fetch(`${server.url}/assets/index-NOPE1234.js`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await fetch(`${server.url}/assets/deeper/x.js`)).status).toBe(404);
    }
    // Without shared storage another build's asset is not found either; the page routes still are.
    expect((await fetch(`${alone.url}/assets/index-OLDbuild.js`)).status).toBe(404);
    expect((await fetch(`${alone.url}/assets/index-ALONE.js`)).status).toBe(200);
    const page = await fetch(`${alone.url}/some/screen`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
