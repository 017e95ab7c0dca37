// Query keys for one personality's documents data. Everything hangs off the personality id, so
// closing one modal and opening another never shows the first one's documents; the access and
// source keys also carry the viewer, because who asks changes the answer.
export const documentsKeys = {
  all: ['documents'] as const,
  personality: (personalityId: string) => [...documentsKeys.all, personalityId] as const,
  access: (personalityId: string, viewerId: string | null) =>
    [...documentsKeys.personality(personalityId), 'access', viewerId ?? 'anonymous'] as const,
  list: (personalityId: string) => [...documentsKeys.personality(personalityId), 'list'] as const,
  chunks: (personalityId: string, documentId: string) =>
    [...documentsKeys.personality(personalityId), 'chunks', documentId] as const,
  source: (personalityId: string, documentId: string, chunkIndex: number, viewerId: string | null) =>
    [...documentsKeys.personality(personalityId), 'source', documentId, chunkIndex, viewerId ?? 'anonymous'] as const,
  questions: (personalityId: string) => [...documentsKeys.personality(personalityId), 'questions'] as const,
};
