// A loopback fake of OpenAI's POST /v1/moderations: its real response shape (results[0] with
// flagged, categories and category_scores). Scores are set per test; every request is recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeModeration {
  url: string;
  requests: { model?: string; input?: unknown; authorization?: string }[];
  /** The scores the next answers carry; `fail` answers 500; `delayMs` holds each answer that long. */
  set(next: { scores?: Record<string, number>; fail?: boolean; delayMs?: number }): void;
  close(): Promise<void>;
}

const CATEGORIES = ['harassment', 'harassment/threatening', 'hate', 'hate/threatening', 'illicit', 'illicit/violent', 'self-harm', 'self-harm/intent', 'self-harm/instructions', 'sexual', 'sexual/minors', 'violence', 'violence/graphic'];

export async function startFakeModeration(): Promise<FakeModeration> {
  let scores: Record<string, number> = {};
  let fail = false;
  let delayMs = 0;
  const requests: FakeModeration['requests'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', async () => {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      if (req.method !== 'POST' || req.url !== '/v1/moderations') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(raw || '{}') as { model?: string; input?: unknown };
      requests.push({ ...body, authorization: req.headers.authorization });
      if (fail) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
        return;
      }
      const category_scores = Object.fromEntries(CATEGORIES.map((c) => [c, scores[c] ?? 0.0001]));
      const categories = Object.fromEntries(CATEGORIES.map((c) => [c, (scores[c] ?? 0) >= 0.5]));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `modr-${requests.length}`,
          model: body.model ?? 'omni-moderation-latest',
          results: [{ flagged: Object.values(categories).some(Boolean), categories, category_scores, category_applied_input_types: {} }],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    set(next) {
      scores = next.scores ?? {};
      fail = next.fail ?? false;
      delayMs = next.delayMs ?? 0;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
