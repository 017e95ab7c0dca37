// Side panel, admins only: "System Optimizations". Where the spec claims "up to 70% faster
// startup", this shows what the context cache measurably does on this server: its hit rate and
// the time to first token with and without it.
import { GaugeIcon } from 'lucide-react';
import type { SystemOptimizations } from '../../../../shared/schemas/conversations';
import { plural } from '../utils/plural';
import { SidePanelCard } from './side-panel-card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useSystemOptimizations } from '../api/get-system-optimizations';

type Ttft = SystemOptimizations['timeToFirstToken']['withCache'];

const ms = (t: Ttft) => (t.p50Ms === null ? '—' : `${Math.round(t.p50Ms)} ms`);

function Row({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium tabular-nums">
        {value}
        {hint && <span className="block text-xs font-normal text-muted-foreground">{hint}</span>}
      </dd>
    </div>
  );
}

export function SystemOptimizationsCard() {
  const figures = useSystemOptimizations(true);
  const f = figures.data;

  let body;
  if (figures.isPending) body = <Skeleton className="h-24" aria-label="Loading system optimizations" />;
  else if (!f) body = <p className="text-sm text-muted-foreground">The figures could not be loaded.</p>;
  else {
    const { contextCache: cache, timeToFirstToken: ttft } = f;
    const { withCache, withoutCache } = ttft;
    const faster =
      withCache.p50Ms !== null && withoutCache.p50Ms !== null && withoutCache.p50Ms > 0
        ? Math.round((1 - withCache.p50Ms / withoutCache.p50Ms) * 100)
        : null;
    body = (
      <dl className="grid gap-2 text-sm">
        <Row
          label="Context cache hit rate"
          value={cache.hitRate === null ? '—' : `${Math.round(cache.hitRate * 100)}%`}
          hint={`${plural(cache.hits, 'hit', 'hits')}, ${plural(cache.misses, 'miss', 'misses')}`}
        />
        <Row label="Cached personalities" value={`${cache.entries} / ${cache.maxEntries}`} hint={`${cache.preloaded} preloaded, ${Math.round(cache.ttlSeconds / 60)} min expiry`} />
        <Row label="First token, cached (p50)" value={ms(withCache)} hint={plural(withCache.count, 'reply', 'replies')} />
        <Row label="First token, uncached (p50)" value={ms(withoutCache)} hint={plural(withoutCache.count, 'reply', 'replies')} />
        {faster !== null && <Row label="Measured effect" value={faster >= 0 ? `${faster}% faster` : `${-faster}% slower`} />}
        <Row label="Responder" value={f.responder.label} hint={`${f.retrieval.mode} retrieval`} />
      </dl>
    );
  }

  return (
    <SidePanelCard icon={GaugeIcon} title="System Optimizations" testId="system-optimizations">
      {body}
    </SidePanelCard>
  );
}
