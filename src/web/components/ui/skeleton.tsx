import * as React from 'react'

import { cn } from '../../lib/cn'

function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn(
        'relative overflow-hidden rounded-md bg-secondary',
        'before:absolute before:inset-0 before:animate-shimmer before:bg-linear-to-r before:from-transparent before:via-card/70 before:to-transparent',
        className,
      )}
      {...props}
    />
  )
}

export { Skeleton }
