// The upload queue of the Documents tab: every chosen or dropped file becomes an item with its
// own progress bar. Files failing the quick checks never leave the browser; the others go one
// request each (two at a time), so each bar shows that file's real progress and one bad file never
// sinks the others. The server's per-file error, or the network's, lands on the file's item.
import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../../../lib/api-client';
import { documentsKeys } from '../api/documents-keys';
import { uploadDocument } from '../api/upload-document';
import { precheckFile } from '../utils/upload-validation';

export interface UploadItem {
  id: string;
  fileName: string;
  /** 0-100 */
  progress: number;
  state: 'queued' | 'uploading' | 'failed';
  error: string | null;
}

const CONCURRENCY = 2;

async function runPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function useFileUploads(personalityId: string) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const seq = useRef(0);

  const patch = useCallback((id: string, change: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const remove = useCallback((id: string) => setItems((list) => list.filter((item) => item.id !== id)), []);

  const upload = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const batch = files.map((file) => {
        const error = precheckFile(file);
        const item: UploadItem = {
          id: `upload-${++seq.current}`,
          fileName: file.name,
          progress: 0,
          state: error ? 'failed' : 'queued',
          error,
        };
        return { file, item };
      });
      setItems((list) => [...list, ...batch.map((b) => b.item)]);
      // The spec's "Upload Error" for files refused before sending. Its description names them
      // only: the reason is on each file's item, and said twice it would be on the page twice.
      const refused = batch.filter((b) => b.item.state === 'failed');
      if (refused.length > 0) {
        toast.error(messages.documents.uploadError, {
          description: refused.length === 1 ? `${refused[0]!.item.fileName} was not uploaded.` : `${refused.length} files were not uploaded.`,
        });
      }

      let uploaded = 0;
      const toSend = batch.filter((b) => b.item.state === 'queued');
      await runPool(toSend, CONCURRENCY, async ({ file, item }) => {
        patch(item.id, { state: 'uploading' });
        try {
          const result = await uploadDocument({
            personalityId,
            file,
            onProgress: (fraction) => patch(item.id, { progress: Math.round(fraction * 100) }),
          });
          if (result.ok) {
            uploaded += 1;
            // The new document is in the list now; its row takes over from the progress bar.
            remove(item.id);
            void queryClient.invalidateQueries({ queryKey: documentsKeys.list(personalityId) });
          } else {
            patch(item.id, { state: 'failed', error: result.error });
          }
        } catch (err) {
          patch(item.id, { state: 'failed', error: errorMessage(err, messages.documents.uploadFailed) });
        }
      });

      const failed = batch.length - uploaded;
      if (uploaded === 0) toast.error(messages.documents.noneUploaded);
      else if (failed > 0)
        toast.error(messages.documents.uploadFailed, {
          description: `${failed} of ${batch.length} files could not be uploaded.`,
        });
      else toast.success(uploaded === 1 ? 'Document uploaded' : `${uploaded} documents uploaded`);
    },
    [patch, personalityId, queryClient, remove],
  );

  return { items, upload, dismiss: remove, busy: items.some((i) => i.state !== 'failed') };
}
