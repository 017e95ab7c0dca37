// Bytes of a stored document -> clean plain text (and chunks), through the extraction worker,
// with each failure turned into a message that names the file.
import { messages } from '../../../shared/messages';
import type { DocumentKind } from './file-sniff';
import type { Chunking, ExtractFailure, ExtractResponse } from './extract-protocol';
import type { ExtractPool } from './extract-pool';

export const MAX_TEXT_CHARS = 10 * 1024 * 1024;

export type ExtractOutcome =
  | { ok: true; text: string; title: string | null; chunks?: string[]; reencoded?: Uint8Array }
  | { ok: false; error: string };

export async function extractDocumentText(
  pool: ExtractPool,
  kind: DocumentKind,
  bytes: Uint8Array,
  fileName: string,
  maxPages: number,
  chunking?: Chunking,
  /** The caller will not use `bytes` again (see ExtractPool.run). */
  handOver = false,
): Promise<ExtractOutcome> {
  return outcome(await pool.run({ op: 'extract', kind, bytes, chunking }, { handOver }), fileName, maxPages);
}

/**
 * A fetched page or file, whose Content-Type may name its charset. `reencoded` in the outcome is
 * what to store instead of `bytes` (see ExtractResponse).
 */
export async function extractFetchedText(
  pool: ExtractPool,
  fetched: { kind: DocumentKind; charset?: string },
  bytes: Uint8Array,
  fileName: string,
  maxPages: number,
): Promise<ExtractOutcome> {
  return outcome(await pool.run({ op: 'extract', kind: fetched.kind, charset: fetched.charset, bytes }), fileName, maxPages);
}

/** Chunks text that was extracted before (rechunk). */
export async function chunkInWorker(pool: ExtractPool, text: string, fileName: string, chunking: Chunking): Promise<ExtractOutcome> {
  return outcome(await pool.run({ op: 'chunk', text, chunking }), fileName, 0);
}

function outcome(res: ExtractResponse, fileName: string, maxPages: number): ExtractOutcome {
  if (!res.ok) return { ok: false, error: failureMessage(res.failure, fileName, maxPages) };
  return { ok: true, text: res.text, title: res.title, chunks: res.chunks, reencoded: res.reencoded };
}

function failureMessage(failure: ExtractFailure, fileName: string, maxPages: number): string {
  switch (failure) {
    case 'too_many_pages':
      return messages.documents.extractTooManyPages(fileName, maxPages);
    case 'too_big_unpacked':
      return messages.documents.extractTooBigUnpacked(fileName);
    case 'too_much_text':
      return messages.documents.extractTooMuchText(fileName);
    case 'timeout':
      return messages.documents.extractTimeout(fileName);
    case 'out_of_memory':
      return messages.documents.extractOutOfMemory(fileName);
    case 'no_text':
      return messages.documents.extractNoText(fileName);
    case 'corrupt':
      return messages.documents.extractFailed(fileName);
  }
}
