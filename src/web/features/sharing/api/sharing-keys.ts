// Query keys for one personality's sharing data (the people it is shared with, the owner's latest
// public request). Keyed by personality id so two open dialogs never see each other's data.
export const sharingKeys = {
  all: ['sharing'] as const,
  personality: (personalityId: string) => [...sharingKeys.all, personalityId] as const,
  shares: (personalityId: string) => [...sharingKeys.personality(personalityId), 'shares'] as const,
  publicRequest: (personalityId: string) => [...sharingKeys.personality(personalityId), 'public-request'] as const,
};
