// One row per file being uploaded (a progress bar) or refused (its reason, and a dismiss button).
import { XIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Progress } from '../../../components/ui/progress';
import type { UploadItem } from '../hooks/use-file-uploads';

interface Props {
  items: UploadItem[];
  onDismiss: (id: string) => void;
}

export function UploadProgressList({ items, onDismiss }: Props) {
  if (items.length === 0) return null;
  return (
    <ul aria-label="Uploads" className="grid gap-2">
      {items.map((item) => (
        <li key={item.id} className="grid gap-1.5 rounded-md border bg-card px-3 py-2 text-sm">
          <div className="flex min-w-0 items-center justify-between gap-2">
            <span className="min-w-0 truncate font-medium" title={item.fileName}>
              {item.fileName}
            </span>
            {item.state === 'failed' ? (
              <Button
                variant="ghost"
                size="icon"
                className="size-7 text-muted-foreground"
                aria-label={`Dismiss ${item.fileName}`}
                onClick={() => onDismiss(item.id)}
              >
                <XIcon aria-hidden />
              </Button>
            ) : (
              <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                {item.state === 'queued' ? 'Waiting' : `${item.progress}%`}
              </span>
            )}
          </div>
          {item.state === 'failed' ? (
            <p role="alert" className="text-xs [overflow-wrap:anywhere] text-destructive">
              {item.error}
            </p>
          ) : (
            <Progress value={item.progress} aria-label={`Uploading ${item.fileName}`} className="h-1.5" />
          )}
        </li>
      ))}
    </ul>
  );
}
