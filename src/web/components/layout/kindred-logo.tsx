import { useId } from 'react';
import { cn } from '../../lib/cn';

/** Kindred's mark: a candle flame on a plum tile (the same drawing as public/favicon.svg). */
export function KindredLogo({ className }: { className?: string }) {
  // Gradient ids must be unique per page: the mark can appear twice (header and a dialog).
  const id = useId();
  const bg = `${id}-bg`;
  const flame = `${id}-flame`;
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cn('size-9 shrink-0', className)}>
      <defs>
        <linearGradient id={bg} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4b2373" />
          <stop offset="0.55" stopColor="#3d2f8a" />
          <stop offset="1" stopColor="#7a2f6e" />
        </linearGradient>
        <linearGradient id={flame} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#ffe08a" />
          <stop offset="1" stopColor="#f0a03c" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${bg})`} />
      <path
        d="M16 5.5c2.6 3.4 6.2 6.9 6.2 11.6a6.2 6.2 0 0 1-12.4 0c0-2.5 1.2-4.4 2.7-6 .2 1.7.9 3 2 3.6-.4-3.4.3-6.4 1.5-9.2z"
        fill={`url(#${flame})`}
      />
      <path d="M16 15.2c1.3 1.5 2.4 2.8 2.4 4.4a2.4 2.4 0 0 1-4.8 0c0-1.6 1.1-2.9 2.4-4.4z" fill="#fff6dc" />
      <circle cx="24.5" cy="8" r="1.1" fill="#ffe08a" />
      <circle cx="7.5" cy="11" r="0.8" fill="#ffe08a" opacity="0.8" />
    </svg>
  );
}
