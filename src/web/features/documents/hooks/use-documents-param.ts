// Which personality's documents are open, kept in the URL so reload and the back button work and
// a link can open them: ?docs={personalityId}. With ?source={documentId}&chunk={index} it opens
// that document's read-only source view at the referenced chunk (index 0-based, as references
// carry it; missing or malformed reads as 0). Anyone may follow such a link: the server decides
// what they see (a non-owner gets "Access Denied" for ?docs= alone).
import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

const DOCS = 'docs';
const SOURCE = 'source';
const CHUNK = 'chunk';

interface DocsLocationState {
  /** Set when the app opened it, so closing can pop that history entry. */
  openedDocuments?: boolean;
}

export interface DocumentReferenceTarget {
  documentId: string;
  chunkIndex: number;
}

export function useDocumentsParam() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const personalityId = params.get(DOCS);
  const sourceId = params.get(SOURCE);
  const chunk = params.get(CHUNK) ?? '';
  const reference: DocumentReferenceTarget | null = sourceId
    ? { documentId: sourceId, chunkIndex: /^\d{1,9}$/.test(chunk) ? Number(chunk) : 0 }
    : null;

  const openDocuments = useCallback(
    (id: string, target?: DocumentReferenceTarget) => {
      const next = new URLSearchParams(params);
      next.set(DOCS, id);
      next.delete(SOURCE);
      next.delete(CHUNK);
      if (target) {
        next.set(SOURCE, target.documentId);
        next.set(CHUNK, String(target.chunkIndex));
      }
      setParams(next, { state: { openedDocuments: true } satisfies DocsLocationState });
    },
    [params, setParams],
  );

  const closeDocuments = useCallback(() => {
    if ((location.state as DocsLocationState | null)?.openedDocuments) {
      navigate(-1);
      return;
    }
    // Arrived by a link or a reload: nothing to go back to, so replace.
    const next = new URLSearchParams(params);
    next.delete(DOCS);
    next.delete(SOURCE);
    next.delete(CHUNK);
    setParams(next, { replace: true });
  }, [location.state, navigate, params, setParams]);

  return { personalityId, reference, openDocuments, closeDocuments };
}
