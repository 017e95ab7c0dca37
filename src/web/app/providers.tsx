import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Toaster } from '../components/ui/sonner';
import { ErrorBoundary } from '../components/error-fallback';
import { createQueryClient } from '../lib/query-client';

/** Everything the screens rely on: the query cache, toasts and a last-resort error boundary. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      {/* "Try Again" also refetches server data: a malformed answer must not fail the retry too. */}
      <ErrorBoundary onReset={() => void client.resetQueries()}>{children}</ErrorBoundary>
      <Toaster position="bottom-right" />
    </QueryClientProvider>
  );
}
