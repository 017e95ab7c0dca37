// Stores one uploaded file as it arrives, never holding it whole: its bytes pass through a gate
// that counts them (failing past the limit), hashes them and shows them to a sniffer, on their
// way to storage. When the sniffer refuses the file, the gate fails the stream at its very end,
// so storage discards what it received: a local blob is written under a temporary name and
// renamed only on success, and object storage aborts its multipart upload. A refused, oversized
// or broken upload therefore leaves nothing under its key.
import crypto from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { BlobStorage } from '../../storage/storage';

export interface StreamSniffer<V> {
  push(chunk: Uint8Array): void;
  finish(): V;
}

/** `A` is the verdicts `accept` lets through, so an ok outcome carries an accepting verdict. */
export type StoreOutcome<V, A extends V = V> =
  | { ok: true; sizeBytes: number; contentHash: string; verdict: A }
  | { ok: false; reason: 'too-large' }
  | { ok: false; reason: 'refused'; verdict: V }
  | { ok: false; reason: 'failed'; error: unknown };

export interface StreamingStore<V, A extends V = V> {
  outcome: Promise<StoreOutcome<V, A>>;
  /** Stops the upload (the request was cut short): nothing is kept. */
  abort(): void;
}

class GateClosed extends Error {}

export interface StoreOptions<V, A extends V> {
  maxBytes: number;
  sniffer: StreamSniffer<V>;
  accept(verdict: V): verdict is A;
}

export function storeAsItStreams<V, A extends V>(storage: BlobStorage, key: string, source: Readable, opts: StoreOptions<V, A>): StreamingStore<V, A> {
  const hash = crypto.createHash('sha256');
  let sizeBytes = 0;
  let verdict: V | undefined;
  let accepted: A | undefined;
  let closedBy: 'too-large' | 'refused' | undefined;

  const gate = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sizeBytes += chunk.length;
      if (sizeBytes > opts.maxBytes) {
        closedBy = 'too-large';
        done(new GateClosed('too large'));
        return;
      }
      hash.update(chunk);
      opts.sniffer.push(chunk);
      done(null, chunk);
    },
    flush(done) {
      verdict = opts.sniffer.finish();
      if (opts.accept(verdict)) {
        accepted = verdict;
        return done();
      }
      closedBy = 'refused';
      done(new GateClosed('refused'));
    },
  });

  // Whatever happens to the stored copy, the rest of this file is still read (and dropped), so the
  // form's other parts and the answer are not held up behind it.
  const drainSource = () => {
    source.unpipe(gate);
    source.resume();
  };
  gate.on('error', drainSource);
  source.on('error', (err) => gate.destroy(err));
  source.pipe(gate);

  const outcome = storage.put(key, gate).then(
    (): StoreOutcome<V, A> => ({ ok: true, sizeBytes, contentHash: hash.digest('hex'), verdict: accepted as A }),
    (error: unknown): StoreOutcome<V, A> => {
      if (closedBy === 'too-large') return { ok: false, reason: 'too-large' };
      if (closedBy === 'refused') return { ok: false, reason: 'refused', verdict: verdict as V };
      return { ok: false, reason: 'failed', error };
    },
  );
  return {
    outcome,
    abort() {
      if (!gate.destroyed) gate.destroy(new Error('upload aborted'));
      drainSource();
    },
  };
}
