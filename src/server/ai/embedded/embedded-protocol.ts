// Messages between the server and the embedded model's thread (embedded-model.worker.ts).
export interface EmbedRequest {
  id: number;
  texts: string[];
}

/** The server no longer wants request `cancel` (a stopping server's batch): it gets no more passes. */
export interface EmbedCancel {
  cancel: number;
}

export type EmbedResponse =
  | { id: number; ok: true; dimensions: number; vectors: Float32Array }
  | { id: number; ok: false; error: string };
