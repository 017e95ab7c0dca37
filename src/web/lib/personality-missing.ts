// A personality this tab shows may have been deleted, renamed out of reach or unshared in another
// tab or by its owner elsewhere. The API answering 404 for it is how this tab learns; the library
// listens and reads itself again, so a dead card or a conversation with a personality that is gone
// gives way to "This personality is not available." instead of failing on every action.
const listeners = new Set<() => void>();

/** `/api/personalities/{id}...`: a 404 there means that personality is not (or no longer) visible. */
export function isPersonalityPath(url: string): boolean {
  return /^\/api\/personalities\/[^/]+/.test(new URL(url, 'http://localhost').pathname);
}

export function reportPersonalityMissing(): void {
  for (const listener of listeners) listener();
}

export function onPersonalityMissing(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
