import * as React from 'react'

import { cn } from '../../lib/cn'

function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return (
    <textarea
      // People type in any script: the box follows the text's own direction (Arabic, Hebrew).
      dir="auto"
      data-slot="textarea"
      className={cn(
        'field-sizing-content flex min-h-20 w-full rounded-md border border-input bg-card px-3 py-2 text-base text-foreground shadow-xs transition-[border-color,box-shadow] outline-none md:text-sm',
        'placeholder:text-muted-foreground',
        'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/35',
        'disabled:cursor-not-allowed disabled:opacity-50',
        'aria-invalid:border-destructive aria-invalid:ring-[3px] aria-invalid:ring-destructive/20',
        className,
      )}
      {...props}
    />
  )
}

export { Textarea }
