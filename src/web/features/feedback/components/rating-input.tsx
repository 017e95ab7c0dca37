import { useState } from 'react';
import { Star } from 'lucide-react';
import { RATING_LABELS } from '../../../../shared/limits';
import { cn } from '../../../lib/cn';

interface RatingInputProps {
  value: number | null;
  onChange: (value: number | null) => void;
  labelledBy: string;
}

/**
 * An optional 1-5 rating as five stars. Choosing the current rating again clears it, so "no
 * rating" stays reachable. Each star is a toggle button named "{n} - {label}".
 */
export function RatingInput({ value, onChange, labelledBy }: RatingInputProps) {
  const [hovered, setHovered] = useState<number | null>(null);
  const shown = hovered ?? value;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <div role="group" aria-labelledby={labelledBy} className="flex items-center" onMouseLeave={() => setHovered(null)}>
        {RATING_LABELS.map((label, i) => {
          const n = i + 1;
          const lit = shown !== null && n <= shown;
          return (
            <button
              key={label}
              type="button"
              aria-label={`${n} - ${label}`}
              aria-pressed={value === n}
              title={label}
              onClick={() => {
                onChange(value === n ? null : n);
                // The choice shows now, not a preview: a tap also focuses (and "hovers") the star,
                // and nothing on a touch screen would take that preview away again.
                setHovered(null);
              }}
              onMouseEnter={() => setHovered(n)}
              onFocus={() => setHovered(n)}
              onBlur={() => setHovered(null)}
              className="rounded-md p-1 outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <Star
                aria-hidden="true"
                className={cn(
                  'size-7 transition-[color,transform] duration-150',
                  lit ? 'scale-105 fill-gold text-[color-mix(in_oklab,var(--gold)_70%,var(--foreground))]' : 'text-input',
                )}
              />
            </button>
          );
        })}
      </div>
      {/* Says the rating chosen, and is announced when it changes. Hovering or tabbing across the
          stars lights them (and each star's title names it) but changes nothing here, so a screen
          reader is not told "Fair", "Good", ... on the way. */}
      <span className="min-w-20 text-sm text-muted-foreground" aria-live="polite" data-testid="rating-label">
        {value !== null ? RATING_LABELS[value - 1] : 'No rating'}
      </span>
    </div>
  );
}
