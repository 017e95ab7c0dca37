// Manage Personalities: every public personality, most recently updated first, with "Make Private".
import { GlobeIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { personalityAvatarUrl } from '../../../lib/personality-avatar';
import { useAgo } from '../../../lib/relative-age';
import { Badge } from '../../../components/ui/badge';
import { usePublicPersonalities } from '../api/list-public-personalities';
import { AdminEmpty, AdminListSkeleton, AdminLoadError } from './admin-states';
import { RevertPersonalityDialog } from './revert-personality-dialog';

export function ManagePersonalitiesTab() {
  const list = usePublicPersonalities();
  const ago = useAgo();

  if (list.isPending) return <AdminListSkeleton label="Loading public personalities" />;
  if (list.isError && !list.data) {
    return <AdminLoadError title={messages.admin.loadPublicFailed} error={list.error} onRetry={() => void list.refetch()} />;
  }

  return (
    <section aria-labelledby="manage-title" className="grid gap-3">
      <h2 id="manage-title" className="font-display text-xl font-semibold">
        Currently public ({list.data.length})
      </h2>
      {list.data.length === 0 ? (
        <AdminEmpty text={messages.admin.noPublicPersonalities} />
      ) : (
        <ul className="grid gap-3" aria-label="Public personalities">
          {list.data.map((p) => (
            <li
              key={p.id}
              aria-label={p.name}
              className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm sm:flex-row sm:items-center"
            >
              <div className="flex min-w-0 flex-1 items-start gap-3">
                {p.hasAvatar ? (
                  // A PNG character card's picture; the initial letter otherwise.
                  <img
                    src={personalityAvatarUrl(p)!}
                    alt=""
                    width={40}
                    height={40}
                    loading="lazy"
                    data-testid="admin-personality-avatar"
                    className="size-10 shrink-0 rounded-full border object-cover"
                  />
                ) : (
                  <span
                    aria-hidden
                    className="flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-mystical font-display text-lg font-semibold text-mystical-foreground"
                  >
                    {p.name.trim().charAt(0).toUpperCase() || '?'}
                  </span>
                )}
                <div className="grid min-w-0 gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 dir="auto" className="min-w-0 font-medium [overflow-wrap:anywhere]">
                      {p.name}
                    </h3>
                    <Badge variant="success">
                      <GlobeIcon aria-hidden />
                      Public
                    </Badge>
                  </div>
                  {p.description && (
                    <p dir="auto" className="line-clamp-2 text-sm [overflow-wrap:anywhere] text-muted-foreground">
                      {p.description}
                    </p>
                  )}
                  <p className="text-xs text-muted-foreground">
                    By <span className="wrap-anywhere">{p.creatorEmail}</span> <span aria-hidden>·</span> updated{' '}
                    <time dateTime={p.updatedAt}>{ago(p.updatedAt)}</time>
                  </p>
                </div>
              </div>
              <div className="self-end sm:self-center">
                <RevertPersonalityDialog personality={p} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
