// Four conversation starters that fit the personality (the server derives them from its name,
// description and documents). Choosing one sends it.
import { SparklesIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';

interface Props {
  starters: string[];
  disabled: boolean;
  onPick: (starter: string) => void;
}

export function ConversationStarters({ starters, disabled, onPick }: Props) {
  if (starters.length === 0) return null;
  return (
    <div className="grid gap-2">
      <p id="starters-label" className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <SparklesIcon className="size-3.5" aria-hidden />
        Conversation starters
      </p>
      <ul aria-labelledby="starters-label" className="grid grid-cols-[minmax(0,1fr)] gap-2 sm:grid-cols-2">
        {starters.map((s) => (
          <li key={s} className="min-w-0">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={disabled}
              onClick={() => onPick(s)}
              className="h-auto min-h-9 w-full min-w-0 shrink justify-start py-2 text-left whitespace-normal [overflow-wrap:anywhere]"
            >
              <span dir="auto" className="min-w-0">
                {s}
              </span>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
