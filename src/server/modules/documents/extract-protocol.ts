// Messages between the server and the extraction worker. Every step that reads untrusted content
// or scans a whole text (decode, parse, normalize, chunk) runs there, off the server's event loop.
import type { DocumentKind } from './file-sniff';

export interface ExtractLimits {
  maxPages: number;
  maxUnpackedBytes: number;
  maxTextChars: number;
}

export interface Chunking {
  size: number;
  overlap: number;
}

/** The work a request asks for: extract (and chunk) a stored file, or chunk text already extracted. */
export type ExtractTask =
  | {
      op: 'extract';
      kind: DocumentKind;
      bytes: Uint8Array;
      chunking?: Chunking;
      /** Text formats: a charset named outside the bytes (a fetched page's Content-Type). */
      charset?: string;
    }
  | { op: 'chunk'; text: string; chunking: Chunking };

export type ExtractRequest = ExtractTask & { id: number; limits: ExtractLimits };

export type ExtractFailure = 'corrupt' | 'no_text' | 'too_many_pages' | 'too_big_unpacked' | 'too_much_text' | 'timeout' | 'out_of_memory';

/**
 * `text` is normalized; `chunks` is there when chunking was asked for. `reencoded` is there when
 * `charset` decided how the bytes read: the source as UTF-8 (with a BOM), to store in their place.
 */
export type ExtractResponse =
  | { id: number; ok: true; text: string; title: string | null; chunks?: string[]; reencoded?: Uint8Array }
  | { id: number; ok: false; failure: ExtractFailure; detail?: string };
