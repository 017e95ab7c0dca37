// Import an article by URL: fetch it through the SSRF guard (public addresses only, size and time
// caps), extract the title and readable text in the extraction worker, then store it as a
// document whose text is ready (the job only chunks it). Failures answer 400 with a clear reason.
import type { Viewer } from '../../auth/session';
import { AppError } from '../../lib/errors';
import { fetchPublicUrl, UrlFetchError } from '../../lib/url-fetch';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import type { DocumentDto } from '../../../shared/schemas/documents';
import type { DocumentService } from './documents.service';
import type { ExtractPool } from './extract-pool';
import { sniffFetched } from './file-sniff';
import { extractFetchedText } from './text-extract';
import { cleanDisplayName } from './display-name';

export interface UrlImportOptions {
  timeoutMs: number;
  allowLoopback: boolean;
  maxPages: number;
}

export function createUrlImporter(service: DocumentService, pool: ExtractPool, opts: UrlImportOptions) {
  return async function importUrl(viewer: Viewer, personalityId: string, input: { url: string; isPrivate?: boolean }): Promise<DocumentDto> {
    const personality = await service.ownedPersonality(viewer, personalityId);
    let page;
    try {
      page = await fetchPublicUrl(input.url, { timeoutMs: opts.timeoutMs, maxBytes: limits.textUploadMaxBytes, allowLoopback: opts.allowLoopback });
    } catch (err) {
      if (err instanceof UrlFetchError) throw new AppError('BAD_REQUEST', fetchMessage(err));
      throw err;
    }
    const fetched = sniffFetched(page.contentType, page.body);
    if (!fetched) throw new AppError('BAD_REQUEST', messages.documents.urlUnsupportedType);
    const fallbackName = nameFromUrl(page.url);
    const outcome = await extractFetchedText(pool, fetched, page.body, fallbackName, opts.maxPages);
    if (!outcome.ok) throw new AppError('BAD_REQUEST', messages.documents.urlNoText);
    const title = cleanDisplayName(outcome.title ?? undefined, fallbackName);
    return service.addStored(personality, {
      fileName: title,
      kind: fetched.kind,
      // A page whose charset only its Content-Type named is stored as UTF-8: the header is not kept.
      bytes: outcome.reencoded ?? page.body,
      isPrivate: input.isPrivate ?? false,
      content: outcome.text,
      sourceUrl: page.url,
    });
  };

  function nameFromUrl(url: string): string {
    const u = new URL(url);
    const last = decodeSafe(u.pathname.split('/').filter(Boolean).pop() ?? '');
    return cleanDisplayName(last ? `${u.hostname} - ${last}` : u.hostname, u.hostname);
  }
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function fetchMessage(err: UrlFetchError): string {
  switch (err.failure) {
    case 'invalid':
      return messages.documents.urlInvalid;
    case 'blocked':
      return messages.documents.urlBlocked;
    case 'timeout':
      return messages.documents.urlTimeout;
    case 'too_large':
      return messages.documents.urlTooLarge;
    case 'too_many_redirects':
      return messages.documents.urlTooManyRedirects;
    case 'http_error':
      return messages.documents.urlFetchFailed(err.message);
    case 'network':
      return messages.documents.urlFetchFailed(err.message);
  }
}
