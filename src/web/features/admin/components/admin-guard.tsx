import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { LoaderCircle } from 'lucide-react';
import { useViewer } from '../../auth/hooks/use-viewer';

/**
 * Lets only admins through: anonymous visitors go to /auth, signed-in non-admins to /. The server
 * checks the role on every admin call anyway; this only decides what to show.
 */
export function AdminGuard({ children }: { children: ReactNode }) {
  const { user, isAdmin, isLoading } = useViewer();
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
