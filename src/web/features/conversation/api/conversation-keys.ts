// Query keys for the conversation screen. Everything about one personality hangs off its id; the
// saved-conversation keys also carry the viewer, so signing out and in as someone else never
// shows the previous person's conversations from the cache.
export const conversationKeys = {
  all: ['conversation'] as const,
  personality: (personalityId: string) => [...conversationKeys.all, personalityId] as const,
  starters: (personalityId: string, viewerId: string | null) =>
    [...conversationKeys.personality(personalityId), 'starters', viewerId ?? 'anonymous'] as const,
  knowledge: (personalityId: string, viewerId: string | null) =>
    [...conversationKeys.personality(personalityId), 'knowledge', viewerId ?? 'anonymous'] as const,
  lists: (personalityId: string) => [...conversationKeys.personality(personalityId), 'saved'] as const,
  list: (personalityId: string, viewerId: string) => [...conversationKeys.lists(personalityId), viewerId] as const,
  details: () => [...conversationKeys.all, 'detail'] as const,
  detail: (conversationId: string, viewerId: string) => [...conversationKeys.details(), conversationId, viewerId] as const,
  systemOptimizations: () => [...conversationKeys.all, 'system-optimizations'] as const,
};
