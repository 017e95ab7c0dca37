import * as React from 'react'
import { cva, type VariantProps } from 'class-variance-authority'

import { cn } from '../../lib/cn'

const alertVariants = cva(
  'relative grid w-full grid-cols-[0_1fr] items-start gap-y-1 rounded-lg border px-4 py-3 text-sm has-[>svg]:grid-cols-[calc(var(--spacing)*4)_1fr] has-[>svg]:gap-x-3 [&>svg]:size-4 [&>svg]:translate-y-0.5 [&>svg]:text-current',
  {
    variants: {
      variant: {
        default: 'bg-card text-card-foreground *:data-[slot=alert-description]:text-muted-foreground',
        destructive:
          'border-destructive/45 bg-[color-mix(in_oklab,var(--destructive)_6%,var(--card))] text-destructive dark:text-red-300',
        success:
          'border-success/45 bg-[color-mix(in_oklab,var(--success)_7%,var(--card))] text-success dark:text-emerald-300',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

type AlertProps = React.ComponentProps<'div'> & VariantProps<typeof alertVariants>

/** role="alert" by default (announced immediately); pass role="status" for non-urgent messages. */
function Alert({ className, variant, role = 'alert', ...props }: AlertProps) {
  return <div data-slot="alert" role={role} className={cn(alertVariants({ variant }), className)} {...props} />
}

function AlertTitle({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div data-slot="alert-title" className={cn('col-start-2 min-h-4 font-semibold tracking-tight', className)} {...props} />
  )
}

function AlertDescription({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="alert-description"
      className={cn('col-start-2 grid justify-items-start gap-1 text-sm [&_p]:leading-relaxed', className)}
      {...props}
    />
  )
}

export { Alert, AlertTitle, AlertDescription, alertVariants, type AlertProps }
