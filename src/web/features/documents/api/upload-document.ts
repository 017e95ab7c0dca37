// One file to POST /api/personalities/{id}/documents (multipart field "files"). This is the one
// call that does not go through the typed client's fetch: fetch cannot report upload progress and
// XMLHttpRequest can (xhr.upload.onprogress). The path still comes from the typed client.
import { messages } from '../../../../shared/messages';
import type { UploadResponse, UploadResult } from '../../../../shared/schemas/documents';
import { api, ApiError, watchAnswer } from '../../../lib/api-client';

export interface UploadDocumentVariables {
  personalityId: string;
  file: File;
  /** 0..1 as the body goes out. */
  onProgress?: (fraction: number) => void;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Resolves to the server's result for this file (ok with the new document, or its error). */
export function uploadDocument({ personalityId, file, onProgress }: UploadDocumentVariables): Promise<UploadResult> {
  const path = api.api.personalities[':id'].documents.$path({ param: { id: personalityId } });
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      watchAnswer(xhr.status, path);
      const body = parse(xhr.responseText) as (UploadResponse & { error?: { code?: string; message?: string } }) | null;
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? messages.documents.uploadFailed));
        return;
      }
      const result = body?.results?.[0];
      if (!result) reject(new ApiError(xhr.status, 'BAD_RESPONSE', messages.documents.uploadFailed));
      else resolve(result);
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', messages.documents.uploadFailed));
    xhr.onabort = () => reject(new ApiError(0, 'ABORTED', messages.documents.uploadFailed));
    const form = new FormData();
    form.append('files', file, file.name);
    xhr.send(form);
  });
}
