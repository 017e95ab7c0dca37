// Below a list that comes a page at a time (pending requests, pending flags): how many of all the
// pending ones are shown, and a button for the next, older page. Without it the oldest would stay
// out of sight with nothing saying they exist.
import { LoaderCircleIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { firstFocusable, focusWhenLost } from '../../../lib/focus-management';

interface ShowOlderProps {
  shown: number;
  total: number;
  /** The button's text, e.g. "Show older flags". */
  label: string;
  /** Said in a toast when the next page cannot be loaded. */
  failedText: string;
  loading: boolean;
  /** Loads the next page; resolves when it is shown (or failed). */
  onShowOlder: () => Promise<{ isError: boolean }>;
  /** The list whose items are counted by `shown`: focus moves into its first newly shown item if the button goes. */
  list: () => HTMLElement | null;
  /** Which control of an item takes focus (default: the first a keyboard would reach). */
  control?: string;
}

export function ShowOlder({ shown, total, label, failedText, loading, onShowOlder, list, control }: ShowOlderProps) {
  async function showOlder() {
    // Not disabled while loading (a disabled button drops keyboard focus): a second press waits.
    if (loading) return;
    const firstOlder = shown;
    const result = await onShowOlder();
    if (result.isError) {
      toast.error(failedText);
      return;
    }
    // The last page takes the button away: focus goes on to the first of the older items.
    focusWhenLost(() => firstFocusable(list()?.children[firstOlder], control));
  }

  return (
    <div className="grid justify-items-center gap-2 pt-1">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Showing the newest {shown} of {total}
      </p>
      <Button variant="outline" onClick={() => void showOlder()} aria-disabled={loading || undefined}>
        {loading && <LoaderCircleIcon className="animate-spin" aria-hidden />}
        {label}
      </Button>
    </div>
  );
}
