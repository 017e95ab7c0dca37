// The browser's quick checks before a file is sent, so an obviously wrong file fails at once
// with the spec's words. The server stays the authority: it checks the content too, and its
// per-file errors are shown the same way.
import { DOCUMENT_EXTENSIONS, limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';

/** The extensions the browse button offers; a dropped file is held to the same list. */
export const ACCEPTED_EXTENSIONS: readonly string[] = DOCUMENT_EXTENSIONS;

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot).toLowerCase() : '';
}

/** Why this file cannot be uploaded, in the spec's words, or null when it may be sent. */
export function precheckFile(file: { name: string; size: number }): string | null {
  if (!ACCEPTED_EXTENSIONS.includes(extensionOf(file.name))) return messages.documents.unsupported(file.name);
  if (file.size > limits.textUploadMaxBytes) return messages.documents.tooLarge(file.name);
  return null;
}

/** 1536 -> "1.5 KB": sizes on the document list. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}
