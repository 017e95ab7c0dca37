import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LoaderCircle } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { ApiError } from '../../../lib/api-client';
import { useViewer } from '../../auth/hooks/use-viewer';
import { authKeys } from '../../auth/api/get-me';

/**
 * Lets only admins through: anonymous visitors go to /auth, signed-in non-admins to /. The server
 * checks the role on every admin call anyway; this only decides what to show. The role can be
 * removed while the dashboard is open (`npm run admin -- revoke`, another process): a call the
 * server refuses with 403 makes the guard ask again who this is, and a former admin is sent to /
 * with a word on why, instead of being left on a dashboard whose every action fails.
 */
export function AdminGuard({ children }: { children: ReactNode }) {
  const { user, isAdmin, isLoading } = useViewer();
  const queryClient = useQueryClient();
  const wasAdmin = useRef(false);

  useEffect(() => {
    const refused = (error: unknown) => {
      if (error instanceof ApiError && error.status === 403) void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    };
    const queries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') refused(event.action.error);
    });
    const mutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') refused(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [queryClient]);

  useEffect(() => {
    if (isAdmin) wasAdmin.current = true;
    else if (wasAdmin.current && user) toast.error(messages.admin.roleRemoved, { id: 'admin-role-removed' });
  }, [isAdmin, user]);

  if (isLoading) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 py-24 text-muted-foreground">
        <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
        Checking permissions...
      </div>
    );
  }
  if (!user) return <Navigate to="/auth" replace />;
  if (!isAdmin) return <Navigate to="/" replace />;
  return <>{children}</>;
}
