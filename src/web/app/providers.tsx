import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Toaster } from '../components/ui/sonner';
import { ErrorBoundary } from '../components/error-fallback';
import { createQueryClient } from '../lib/query-client';
import { useMediaQuery } from '../lib/use-media-query';

/**
 * Sonner's own phone layout (full width) starts at this width. There, toasts drop from the top: at
 * the bottom they covered the message box and Send, and a card's Start Chat, for seconds at a time.
 */
export const PHONE_TOASTS_QUERY = '(max-width: 600px)';

/** Everything the screens rely on: the query cache, toasts and a last-resort error boundary. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const phone = useMediaQuery(PHONE_TOASTS_QUERY);
  return (
    <QueryClientProvider client={client}>
      {/* "Try Again" also refetches server data: a malformed answer must not fail the retry too. */}
      <ErrorBoundary onReset={() => void client.resetQueries()}>{children}</ErrorBoundary>
      <Toaster position={phone ? 'top-center' : 'bottom-right'} />
    </QueryClientProvider>
  );
}
