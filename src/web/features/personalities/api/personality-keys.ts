// Query keys for personalities. The list key carries the viewer id, so signing in or out
// switches to (and fetches) the library that person may see instead of showing the last one.
export const personalityKeys = {
  all: ['personalities'] as const,
  lists: () => [...personalityKeys.all, 'list'] as const,
  list: (viewerId: string | null) => [...personalityKeys.lists(), viewerId ?? 'anonymous'] as const,
};
