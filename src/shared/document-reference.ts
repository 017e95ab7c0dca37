// Spec section 9: a chunk reference is named "{file name} (chunk N)". Chunks are stored 0-based
// (chunk_index); people count from 1, so N = chunk_index + 1. documentReferences also carry the
// raw documentId and chunkIndex, which the source viewer uses to highlight the chunk.
export function referenceName(fileName: string, chunkIndex: number): string {
  return `${fileName} (chunk ${chunkIndex + 1})`;
}

/** Similarity 0..1 as the "% match" the UI shows. */
export function matchPercent(similarity: number): string {
  return `${Math.round(Math.min(1, Math.max(0, similarity)) * 100)}% match`;
}
