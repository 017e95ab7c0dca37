// The documents list is written by fetches and by the live event stream; an answer that left the
// server before a newer state must not overwrite that state (the stream would not say it again).
import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { keepLatest, listDocumentsQueryOptions } from './list-documents';
import { makeDocument } from '../test-support/documents-api-stub';
import type { DocumentDto } from '../../../../shared/schemas/documents';

const processing = makeDocument({ id: 'd1', status: 'processing', progress: 1, updatedAt: '2026-11-25T22:00:00.100Z' });
const failed = { ...processing, status: 'failed' as const, error: 'quota', updatedAt: '2026-11-25T22:00:00.250Z' };

describe('the documents list keeps the latest state of each document', () => {
  it('keeps a newer state over an older answer, takes a newer or equal one, and drops what the answer lacks', () => {
    expect(keepLatest([failed], [processing])).toEqual([failed]);
    expect(keepLatest([processing], [failed])).toEqual([failed]);
    const moreProgress = { ...processing, progress: 40 };
    expect(keepLatest([processing], [moreProgress])).toEqual([moreProgress]);
    expect(keepLatest([failed, makeDocument({ id: 'gone' })], [])).toEqual([]);
    expect(keepLatest(undefined, [processing])).toEqual([processing]);
  });

  it('a fetch answered after the stream reported the failure leaves the row Failed', () => {
    const client = new QueryClient();
    const options = listDocumentsQueryOptions('p1');
    // The query as the list hook makes it (its options hold the merge rule).
    client.getQueryCache().build(client, options as never);
    client.setQueryData(options.queryKey, [failed]); // the live stream
    client.setQueryData(options.queryKey, [processing]); // a fetch sent before the job failed
    expect((client.getQueryData(options.queryKey) as DocumentDto[])[0]).toMatchObject({ status: 'failed', error: 'quota' });
  });
});
