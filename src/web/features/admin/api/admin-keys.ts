// Query keys for the admin dashboard. Every admin action invalidates `all`: the summary counts,
// the request queue and both personality lists all change together.
export const adminKeys = {
  all: ['admin'] as const,
  summary: () => [...adminKeys.all, 'summary'] as const,
  publicRequests: () => [...adminKeys.all, 'public-requests'] as const,
  publicPersonalities: () => [...adminKeys.all, 'personalities', 'public'] as const,
  ordering: () => [...adminKeys.all, 'personalities', 'ordering'] as const,
  contentFlags: () => [...adminKeys.all, 'content-flags'] as const,
  voiceUsage: () => [...adminKeys.all, 'monitoring', 'voice-usage'] as const,
  rateLimits: () => [...adminKeys.all, 'monitoring', 'rate-limits'] as const,
};
