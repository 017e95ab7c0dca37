// URL import: a loopback page (reachable only through the test allowance), title and text
// extracted; private and metadata addresses refused, also behind redirects; size and time caps.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { messages } from '../../../shared/messages';
import { createPersonality, waitForDocument } from './documents.test-support';

const article = `<!doctype html><html><head><title>The Analytical Engine</title></head><body>
  <header>Site menu</header><main><article><h1>The Analytical Engine</h1>
  <p>Ada Lovelace wrote that the engine might compose elaborate pieces of music of any degree of complexity.</p>
  <p>She also described how it could calculate Bernoulli numbers, often called the first published program.</p>
  </article></main><footer>Footer links</footer></body></html>`;

// The same kind of article in the encodings older sites still serve, named by the Content-Type
// header only, or by a <meta> only.
const french = 'Élodie Fournier est née à Lyon. Son dessert préféré est la crème brûlée, à 5 €. Le café « Le Naïf » l’a rendue célèbre.';
const frenchPage = (meta: string) =>
  Buffer.from(`<!doctype html><html><head>${meta}<title>Café à Lyon</title></head><body><article><p>${french}</p><p>${french}</p></article></body></html>`.replace('€', '\x80').replace('’', '\x92'), 'latin1');
// "こんにちは、日本語のページです。" in Shift_JIS.
const japanese = 'こんにちは、日本語のページです。';
const japaneseSjis = Buffer.from('82b182f182c982bf82cd814193fa967b8cea82cc8379815b835782c582b78142', 'hex');
const japanesePage = Buffer.concat([Buffer.from('<!doctype html><html><head><title>Nihongo</title></head><body><article><p>'), japaneseSjis, Buffer.from('</p></article></body></html>')]);

let pages: http.Server;
let base: string;
let hits: string[] = [];
let allowed: TestServer;
let strict: TestServer;

beforeAll(async () => {
  pages = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    switch (req.url) {
      case '/article':
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article);
      case '/latin1-header':
        return void res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' }).end(frenchPage(''));
      case '/latin1-meta':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(frenchPage('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'));
      case '/latin1-undeclared':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(frenchPage(''));
      case '/latin1.txt':
        return void res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from(french.replace('€', '\x80').replace('’', '\x92'), 'latin1'));
      case '/sjis-header':
        return void res.writeHead(200, { 'content-type': 'text/html; charset=Shift_JIS' }).end(japanesePage);
      case '/sjis.txt':
        return void res.writeHead(200, { 'content-type': 'text/plain; charset="shift_jis"' }).end(japaneseSjis);
      case '/unknown-charset':
        return void res.writeHead(200, { 'content-type': 'text/plain; charset=x-no-such-thing' }).end('Plain words, naïve café.');
      case '/plain':
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('Just some plain words about looms.');
      case '/to-article':
        return void res.writeHead(302, { location: '/article' }).end();
      case '/to-metadata':
        return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      case '/to-private':
        return void res.writeHead(301, { location: 'http://10.0.0.1/secret' }).end();
      case '/to-mapped':
        return void res.writeHead(302, { location: 'http://[::ffff:a9fe:a9fe]/' }).end();
      case '/loop':
        return void res.writeHead(302, { location: '/loop' }).end();
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 11; i++) res.write(Buffer.alloc(1024 * 1024, 'a'));
        return void res.end();
      case '/slow':
        return; // never answers
      case '/binary':
        return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3, 0xff]));
      case '/missing':
        return void res.writeHead(404).end('nope');
      case '/empty':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><script>1</script></body></html>');
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  allowed = await startTestServer({ env: { URL_IMPORT_ALLOW_LOOPBACK: 'true', URL_IMPORT_TIMEOUT_MS: '1500', JOB_POLL_MS: '50' } });
  strict = await startTestServer({ env: { JOB_CONCURRENCY: '0' } });
});
afterAll(async () => {
  pages?.closeAllConnections();
  pages?.close();
  await allowed?.close();
  await strict?.close();
});

async function importAs(server: TestServer, owner: Awaited<ReturnType<TestServer['user']>>, pid: string, url: string) {
  return owner.post(`/api/personalities/${pid}/documents/url`, { url });
}

async function textOf(owner: Awaited<ReturnType<TestServer['user']>>, pid: string, docId: string): Promise<string> {
  const res = await owner.get(`/api/personalities/${pid}/documents/${docId}/chunks`);
  return (res.body.chunks as { content: string }[]).map((c) => c.content).join('\n');
}

describe('URL import', () => {
  it('imports an article with its title and readable text, then chunks it', async () => {
    const owner = await allowed.user();
    const pid = await createPersonality(owner);
    const res = await importAs(allowed, owner, pid, `${base}/to-article`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.document).toMatchObject({ fileName: 'The Analytical Engine', sourceUrl: `${base}/article`, mimeType: 'text/html', hasContent: true });
    await waitForDocument(owner, pid, res.body.document.id);
    const chunks = await owner.get(`/api/personalities/${pid}/documents/${res.body.document.id}/chunks`);
    const text = chunks.body.chunks.map((c: { content: string }) => c.content).join('\n');
    expect(text).toContain('compose elaborate pieces of music');
    expect(text).toContain('Bernoulli numbers');
    expect(text).not.toContain('Footer links');

    const plain = await importAs(allowed, owner, pid, `${base}/plain`);
    expect(plain.status).toBe(201);
    expect(plain.body.document.fileName).toBe('127.0.0.1 - plain');
  });

  it('reads pages in the charset their Content-Type or <meta> names, else UTF-8 or Windows-1252', async () => {
    const owner = await allowed.user();
    const pid = await createPersonality(owner);
    const expected: [string, string][] = [
      ['/latin1-header', french],
      ['/latin1-meta', french],
      ['/latin1-undeclared', french],
      ['/latin1.txt', french],
      ['/sjis-header', japanese],
      ['/sjis.txt', japanese],
      ['/unknown-charset', 'Plain words, naïve café.'],
    ];
    for (const [path, words] of expected) {
      const res = await importAs(allowed, owner, pid, `${base}${path}`);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
      await waitForDocument(owner, pid, res.body.document.id);
      expect(await textOf(owner, pid, res.body.document.id), path).toContain(words);
    }
    const titles = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents.map((d: { fileName: string }) => d.fileName);
    expect(titles).toContain('Café à Lyon');
  });

  it('a page decoded by its header charset reads the same when processed again', async () => {
    const owner = await allowed.user();
    const pid = await createPersonality(owner);
    for (const path of ['/sjis.txt', '/sjis-header']) {
      const res = await importAs(allowed, owner, pid, `${base}${path}`);
      expect(res.status, path).toBe(201);
      const id = res.body.document.id;
      await waitForDocument(owner, pid, id);
      const again = await owner.post(`/api/personalities/${pid}/documents/${id}/process`, {});
      expect(again.status, JSON.stringify(again.body)).toBe(202);
      await waitForDocument(owner, pid, id, ['ready', 'failed']);
      const doc = (await owner.get(`/api/personalities/${pid}/documents`)).body.documents.find((d: { id: string }) => d.id === id);
      expect(doc.status, JSON.stringify(doc)).toBe('ready');
      expect(await textOf(owner, pid, id), path).toContain(japanese);
    }
  });

  it('refuses private and metadata addresses, also behind a redirect, without connecting to them', async () => {
    const owner = await allowed.user();
    const pid = await createPersonality(owner);
    for (const url of [`${base}/to-metadata`, `${base}/to-private`, `${base}/to-mapped`, 'http://169.254.169.254/', 'http://10.1.2.3/', 'http://[fd00::1]/', 'http://0x7f000001.0/']) {
      const res = await importAs(allowed, owner, pid, url);
      expect(res.status, url).toBe(400);
      expect([messages.documents.urlBlocked, messages.documents.urlInvalid], url).toContain(res.body.error.message);
    }
    const res = await importAs(allowed, owner, pid, `${base}/to-metadata`);
    expect(res.body.error.message).toBe(messages.documents.urlBlocked);
  });

  it('refuses loopback without the test allowance, by address and by name', async () => {
    const owner = await strict.user();
    const pid = await createPersonality(owner);
    const port = new URL(base).port;
    hits = [];
    for (const url of [`${base}/article`, `http://localhost:${port}/article`, `http://[::1]:${port}/article`, `http://2130706433:${port}/article`]) {
      const res = await importAs(strict, owner, pid, url);
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toBe(messages.documents.urlBlocked);
    }
    expect(hits).toEqual([]);
  });

  it('caps size, time and redirects, and explains other failures', async () => {
    const owner = await allowed.user();
    const pid = await createPersonality(owner);
    const cases: [string, string][] = [
      [`${base}/big`, messages.documents.urlTooLarge],
      [`${base}/slow`, messages.documents.urlTimeout],
      [`${base}/loop`, messages.documents.urlTooManyRedirects],
      [`${base}/binary`, messages.documents.urlUnsupportedType],
      [`${base}/missing`, messages.documents.urlFetchFailed('the server answered 404')],
      [`${base}/empty`, messages.documents.urlNoText],
      ['ftp://example.com/file.txt', messages.documents.urlInvalid],
      ['not a url', messages.documents.urlInvalid],
      ['http://user:pass@example.com/', messages.documents.urlInvalid],
    ];
    for (const [url, message] of cases) {
      const res = await importAs(allowed, owner, pid, url);
      expect(res.status, url).toBe(400);
      expect(res.body.error.message, url).toBe(message);
    }
    const list = await owner.get(`/api/personalities/${pid}/documents`);
    expect(list.body.documents).toEqual([]);
  });
});
