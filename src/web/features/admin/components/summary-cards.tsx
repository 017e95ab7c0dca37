// The three summary cards: public personalities, pending requests, and system monitoring, which
// is twice as wide (it holds the credit gauge and the rate-limit table).
import type { ReactNode } from 'react';
import { ActivityIcon, ClockIcon, GlobeIcon } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { useAdminSummary } from '../api/get-admin-summary';
import { SystemMonitoring } from './system-monitoring';

function SummaryCard({ title, icon, children, className }: { title: string; icon: ReactNode; children: ReactNode; className?: string }) {
  return (
    <Card role="region" aria-label={title} className={cn('gap-2 py-4 sm:py-5', className)}>
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle className="font-sans text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <span className="text-muted-foreground [&_svg]:size-4">{icon}</span>
      </CardHeader>
      <CardContent className="grid gap-1">{children}</CardContent>
    </Card>
  );
}

function Count({ value, pending }: { value: number | undefined; pending: boolean }) {
  if (pending) return <Skeleton className="h-8 w-12" />;
  return <p className="font-display text-3xl font-semibold tabular-nums">{value ?? '–'}</p>;
}

export function SummaryCards() {
  const summary = useAdminSummary();
  return (
    <div className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <SummaryCard title="Public Personalities" icon={<GlobeIcon aria-hidden />}>
        <Count value={summary.data?.publicCount} pending={summary.isPending} />
        <p className="text-xs text-muted-foreground">Visible to everyone</p>
      </SummaryCard>
      <SummaryCard title="Pending Requests" icon={<ClockIcon aria-hidden />}>
        <Count value={summary.data?.pendingCount} pending={summary.isPending} />
        <p className="text-xs text-muted-foreground">Awaiting review</p>
      </SummaryCard>
      <SummaryCard title="System Monitoring" icon={<ActivityIcon aria-hidden />} className="sm:col-span-2">
        <SystemMonitoring />
      </SummaryCard>
      {summary.isError && (
        <p role="alert" className="text-sm text-destructive sm:col-span-2 lg:col-span-4">
          Could not load the counts. They will be retried when you come back to this page.
        </p>
      )}
    </div>
  );
}
