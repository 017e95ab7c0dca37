// Messages between the server and the embedded model's thread (embedded-model.worker.ts).
export interface EmbedRequest {
  id: number;
  texts: string[];
}

export type EmbedResponse =
  | { id: number; ok: true; dimensions: number; vectors: Float32Array }
  | { id: number; ok: false; error: string };
