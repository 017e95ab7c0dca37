import { Link } from 'react-router';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { AdminDashboard } from './admin-dashboard';
import { AdminGuard } from './admin-guard';

/** /admin: "Back to Main", the title and subtitle, then the dashboard, for admins only. */
export function AdminPage() {
  return (
    <AdminGuard>
      <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-10">
        <Button asChild variant="ghost" size="sm" className="-ml-2 mb-4">
          <Link to="/">
            <ArrowLeft aria-hidden="true" />
            Back to Main
          </Link>
        </Button>
        <header className="mb-8 flex items-start gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-gradient-realm text-realm-foreground shadow-md">
            <ShieldCheck className="size-6" aria-hidden="true" />
          </span>
          <div>
            <h1 className="font-display text-3xl font-semibold tracking-tight">Admin Dashboard</h1>
            <p className="mt-1 text-muted-foreground">Manage personalities and user requests</p>
          </div>
        </header>
        <AdminDashboard />
      </div>
    </AdminGuard>
  );
}
