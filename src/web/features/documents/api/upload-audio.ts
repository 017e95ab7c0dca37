// One audio file to POST /api/personalities/{id}/documents/audio (multipart "file", "title"), to be
// transcribed into a document. XMLHttpRequest, like upload-document.ts, for upload progress.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { api, ApiError, watchAnswer } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';
import { addCachedDocument } from './document-cache';
import { watchTranscription } from '../hooks/use-transcription-toasts';

export interface UploadAudioVariables {
  personalityId: string;
  file: File;
  title: string;
  onProgress?: (fraction: number) => void;
}

export function uploadAudio({ personalityId, file, title, onProgress }: UploadAudioVariables): Promise<DocumentDto> {
  const path = api.api.personalities[':id'].documents.audio.$path({ param: { id: personalityId } });
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      watchAnswer(xhr.status, path);
      let body: { document?: DocumentDto; error?: { code?: string; message?: string } } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: a proxy's error page */
      }
      if (xhr.status < 200 || xhr.status >= 300 || !body?.document) {
        reject(new ApiError(xhr.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? messages.documents.uploadFailed));
      } else resolve(body.document);
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', messages.documents.uploadFailed));
    xhr.onabort = () => reject(new ApiError(0, 'ABORTED', messages.documents.uploadFailed));
    const form = new FormData();
    if (title.trim()) form.append('title', title.trim());
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export function useUploadAudio() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAudio,
    // The new document is in the list at once, as the server answered it, and its end will be
    // announced even when the job finishes before the list is read again.
    onSuccess: (document) => {
      watchTranscription(document.id);
      addCachedDocument(queryClient, document);
    },
    onSettled: (_data, _err, { personalityId }) => queryClient.invalidateQueries({ queryKey: documentsKeys.list(personalityId) }),
  });
}
