// The text of recently won chunks, in memory, so a question whose winners were read before asks
// the database nothing after its first read (issue 19: one statement before the model, not two).
//
// Safe to keep because a chunk's text never changes within its document's chunk generation:
// chunks are replaced only as a whole, in the same transaction that raises the generation
// (documents.repository replaceChunks), and a document's file name is set once. An entry is used
// only under the generation the request's own first read found, and that read has just checked
// the asker may use the document, so memory grants nothing the database would not.
export interface ChunkText {
  chunkId: string;
  documentId: string;
  fileName: string;
  chunkIndex: number;
  content: string;
}

/** A chunk's text as read from the database, with the generation it belongs to. */
export interface ChunkTextRow extends ChunkText {
  chunkGeneration: number;
}

/** Per entry beside its strings: the key, the object and the map's slot, roughly. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * Least recently used dropped first once the texts hold more than `budgetBytes` (counted as two
 * bytes a character, V8's worst case). A chunk larger than the whole budget is not kept.
 */
export class ChunkTextCache {
  private readonly entries = new Map<string, { text: ChunkText; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(documentId: string, generation: number, chunkIndex: number): ChunkText | undefined {
    const key = keyOf(documentId, generation, chunkIndex);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.text;
  }

  set(row: ChunkTextRow): void {
    const key = keyOf(row.documentId, row.chunkGeneration, row.chunkIndex);
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    const bytes = ENTRY_OVERHEAD_BYTES + 2 * (row.content.length + row.fileName.length + key.length + row.chunkId.length);
    if (bytes > this.budgetBytes) return;
    for (const [k, entry] of this.entries) {
      if (this.bytes + bytes <= this.budgetBytes) break;
      this.entries.delete(k);
      this.bytes -= entry.bytes;
    }
    const { chunkId, documentId, fileName, chunkIndex, content } = row;
    this.entries.set(key, { text: { chunkId, documentId, fileName, chunkIndex, content }, bytes });
    this.bytes += bytes;
  }

  get size(): { chunks: number; bytes: number } {
    return { chunks: this.entries.size, bytes: this.bytes };
  }
}

function keyOf(documentId: string, generation: number, chunkIndex: number): string {
  return `${documentId}:${generation}:${chunkIndex}`;
}
