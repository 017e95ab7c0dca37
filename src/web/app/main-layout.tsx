import { Outlet, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, MessageSquareHeart } from 'lucide-react';
import { AppHeader } from '../components/layout/app-header';
import { ErrorBoundary } from '../components/error-fallback';
import { Button } from '../components/ui/button';
import { useViewer } from '../features/auth/hooks/use-viewer';
import { useSignOut } from '../features/auth/api/sign-out';
import { FeedbackDialog } from '../features/feedback/components/feedback-dialog';
import { ChangePasswordDialog } from '../features/auth/components/change-password-dialog';

/** Screens under the fixed header ("/" and "/admin"). A render error keeps the header usable. */
export function MainLayout() {
  const { user, isAdmin, isLoading } = useViewer();
  const signOut = useSignOut();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <AppHeader
        user={user}
        isAdmin={isAdmin}
        isLoading={isLoading}
        onSignOut={() => signOut.mutate()}
        signingOut={signOut.isPending}
        account={
          <ChangePasswordDialog
            trigger={
              <Button variant="ghost" size="sm" aria-label="Change Password" title="Change Password">
                <KeyRound aria-hidden="true" />
              </Button>
            }
          />
        }
        feedback={
          <FeedbackDialog
            trigger={
              <Button variant="ghost" size="sm">
                <MessageSquareHeart aria-hidden="true" />
                <span className="sr-only sm:not-sr-only">Feedback</span>
              </Button>
            }
          />
        }
      />
      <main id="main" tabIndex={-1} className="pt-16 outline-none">
        {/* Keyed by path: moving to another screen gives it a fresh start after an error. */}
        <ErrorBoundary resetKey={pathname} onReset={() => void queryClient.resetQueries()}>
          <Outlet />
        </ErrorBoundary>
      </main>
    </div>
  );
}
