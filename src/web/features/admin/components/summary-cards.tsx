// The three summary cards: public personalities, pending requests, system monitoring.
import type { ReactNode } from 'react';
import { ActivityIcon, ClockIcon, GlobeIcon } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAdminSummary } from '../api/get-admin-summary';

function SummaryCard({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card role="region" aria-label={title} className="gap-2 py-4 sm:py-5">
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
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <SummaryCard title="Public Personalities" icon={<GlobeIcon aria-hidden />}>
        <Count value={summary.data?.publicCount} pending={summary.isPending} />
        <p className="text-xs text-muted-foreground">Visible to everyone</p>
      </SummaryCard>
      <SummaryCard title="Pending Requests" icon={<ClockIcon aria-hidden />}>
        <Count value={summary.data?.pendingCount} pending={summary.isPending} />
        <p className="text-xs text-muted-foreground">Awaiting review</p>
      </SummaryCard>
      <SummaryCard title="System Monitoring" icon={<ActivityIcon aria-hidden />}>
        <p className="text-sm">Monitoring details arrive with voice features.</p>
        <p className="text-xs text-muted-foreground">Voice-credit usage and API rate limits will be shown here.</p>
      </SummaryCard>
      {summary.isError && (
        <p role="alert" className="text-sm text-destructive sm:col-span-2 lg:col-span-3">
          Could not load the counts. They will be retried when you come back to this page.
        </p>
      )}
    </div>
  );
}
