// Routes whose bodies are streamed with their own limits, exempt from the API's small JSON limit.
const DOCUMENT_UPLOAD = /^\/api\/personalities\/[^/]+\/documents\/?$/;

export function isStreamedUploadPath(method: string, path: string): boolean {
  return method === 'POST' && DOCUMENT_UPLOAD.test(path);
}
