import { Link } from 'react-router';
import { Home } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { KindredLogo } from '../../components/layout/kindred-logo';

/** Any unknown path. */
export function NotFoundRoute() {
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-md text-center">
        <KindredLogo className="mx-auto mb-6 size-14 opacity-90" />
        <p className="font-display text-7xl font-semibold tracking-tight mystical-text sm:text-8xl" aria-hidden="true">
          404
        </p>
        <h1 className="mt-4 font-display text-2xl font-semibold tracking-tight">Oops! Page not found</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          This page has wandered off. Perhaps one of our personalities knows where it went.
        </p>
        <Button asChild variant="mystical" size="lg" className="mt-8">
          <Link to="/">
            <Home aria-hidden="true" />
            Return to Home
          </Link>
        </Button>
      </div>
    </main>
  );
}
