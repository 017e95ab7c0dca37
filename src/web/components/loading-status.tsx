import { LoaderCircle } from 'lucide-react';
import { cn } from '../lib/cn';

/**
 * "Loading..." with a spinner, announced as a status: where a screen, a form or a dialog's code
 * or data is on its way. `className` sets the room it takes (padding, alignment).
 */
export function LoadingStatus({ className }: { className?: string }) {
  return (
    <div role="status" className={cn('flex items-center gap-2 text-muted-foreground', className)}>
      <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
      Loading...
    </div>
  );
}
