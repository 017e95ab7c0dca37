import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { LogIn, LogOut, ShieldCheck } from 'lucide-react';
import { Button } from '../ui/button';
import { Skeleton } from '../ui/skeleton';
import { KindredLogo } from './kindred-logo';

export interface AppHeaderProps {
  user: { displayName: string; email: string } | null;
  isAdmin: boolean;
  /** While the session is being resolved, neither Sign In nor Sign Out is offered. */
  isLoading: boolean;
  onSignOut: () => void;
  signingOut?: boolean;
  /** The Feedback button with its dialog (composed by the app, since it belongs to a feature). */
  feedback: ReactNode;
  /** Account controls for a signed-in person (Change Password), shown before Sign Out. */
  account?: ReactNode;
}

/** Small screens show icons only; the words stay as the buttons' accessible names. */
const label = 'sr-only sm:not-sr-only';

/** The fixed header: logo and title, Feedback, Admin (admins only), and Sign Out or Sign In. */
export function AppHeader({ user, isAdmin, isLoading, onSignOut, signingOut, feedback, account }: AppHeaderProps) {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-full max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2.5 rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <KindredLogo />
          {/* On the narrowest phones the logo stands alone (the word stays its name): with Feedback,
              Admin and Sign Out beside it, it ran under the buttons. */}
          <span className="font-display text-2xl font-semibold tracking-tight mystical-text max-[399px]:sr-only">Kindred</span>
        </Link>

        <nav aria-label="Account" className="flex shrink-0 items-center gap-1.5 sm:gap-2">
          {feedback}
          {user && isAdmin && <AdminButton />}
          {isLoading ? (
            <Skeleton className="h-9 w-24 rounded-md" aria-hidden="true" />
          ) : user ? (
            <>
              <span
                className="hidden max-w-40 truncate text-sm text-muted-foreground lg:inline"
                title={user.email}
                data-testid="header-user"
              >
                {user.displayName}
              </span>
              {account}
              <Button variant="outline" size="sm" onClick={onSignOut} disabled={signingOut}>
                <LogOut aria-hidden="true" />
                <span className={label}>Sign Out</span>
              </Button>
            </>
          ) : (
            <Button asChild variant="mystical" size="sm">
              <Link to="/auth">
                <LogIn aria-hidden="true" />
                Sign In
              </Link>
            </Button>
          )}
        </nav>
      </div>
    </header>
  );
}

/**
 * The spec's "Admin button": a button (as the spec names it, and as a person looking for "the
 * Admin button" finds it) that opens the dashboard.
 */
function AdminButton() {
  const navigate = useNavigate();
  return (
    <Button variant="realm" size="sm" onClick={() => void navigate('/admin')}>
      <ShieldCheck aria-hidden="true" />
      <span className={label}>Admin</span>
    </Button>
  );
}
