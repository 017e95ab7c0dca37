// Live updates for the owner's document list: the server's event stream (SSE, event "documents"
// carries the whole list) writes straight into the list's query cache. Returns whether the stream
// is connected; while it is not (no EventSource, not yet open, reconnecting after an error), the
// list polls every 2 s instead (spec section 9).
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { documentsEventSchema } from '../../../../shared/schemas/documents';
import { api } from '../../../lib/api-client';
import { documentsKeys } from '../api/documents-keys';
import { newestFirst } from '../api/list-documents';

/** The stream is a plain SSE route outside the typed JSON routes; its path extends the list's. */
export function documentEventsPath(personalityId: string): string {
  return `${api.api.personalities[':id'].documents.$path({ param: { id: personalityId } })}/events`;
}

function parseJson(data: unknown): unknown {
  try {
    return typeof data === 'string' ? JSON.parse(data) : null;
  } catch {
    return null;
  }
}

export function useDocumentEvents(personalityId: string, enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(documentEventsPath(personalityId));
    const listKey = documentsKeys.list(personalityId);
    source.onopen = () => setLive(true);
    // EventSource reconnects by itself; polling covers the gap.
    source.onerror = () => setLive(false);
    source.addEventListener('documents', (event) => {
      const parsed = documentsEventSchema.safeParse(parseJson((event as MessageEvent).data));
      if (!parsed.success) return;
      queryClient.setQueryData(listKey, newestFirst(parsed.data.documents));
      setLive(true);
    });
    // The personality was deleted (or is no longer ours): stop, and let the list answer why.
    source.addEventListener('gone', () => {
      source.close();
      setLive(false);
      void queryClient.invalidateQueries({ queryKey: listKey });
    });
    return () => {
      source.close();
      setLive(false);
    };
  }, [enabled, personalityId, queryClient]);

  return live;
}
