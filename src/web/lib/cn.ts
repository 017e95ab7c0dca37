import { clsx, type ClassValue } from 'clsx'
import { extendTailwindMerge } from 'tailwind-merge'

/**
 * tailwind-merge taught about Kindred's custom theme utilities (see styles.css),
 * so e.g. `shadow-glow` conflicts with `shadow-lg` and `bg-gradient-mystical`
 * is treated as a background image rather than a background colour.
 */
const twMerge = extendTailwindMerge({
  extend: {
    theme: {
      shadow: ['glow', 'candle'],
      animate: ['fade-in', 'fade-out', 'dialog-in', 'dialog-out', 'pop-in', 'pop-out', 'shimmer'],
      font: ['display'],
    },
    classGroups: {
      'bg-image': [{ 'bg-gradient': ['mystical', 'realm', 'personality', 'candlelight'] }],
    },
  },
})

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs))
}
