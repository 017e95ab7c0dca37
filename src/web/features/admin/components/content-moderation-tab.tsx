// Content Moderation: flag review arrives in a later issue; until then the tab says so plainly.
import { ShieldAlertIcon } from 'lucide-react';

export function ContentModerationTab() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed bg-card/60 px-6 py-12 text-center">
      <ShieldAlertIcon className="size-7 text-muted-foreground" aria-hidden />
      <p className="font-medium">Content moderation arrives in a later release</p>
      <p className="max-w-sm text-sm text-muted-foreground">Flagged content will be listed here for review.</p>
    </div>
  );
}
