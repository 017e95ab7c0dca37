import * as React from 'react'
import { Toaster as Sonner, type ToasterProps } from 'sonner'

/** Tints a status colour into the popover surface so toasts stay on-theme in light and dark. */
const tint = (color: string, amount: number) => `color-mix(in oklab, var(${color}) ${amount}%, var(--popover))`
const ink = (color: string) => `color-mix(in oklab, var(${color}) 70%, var(--foreground))`

const themeVars = {
  '--normal-bg': 'var(--popover)',
  '--normal-text': 'var(--popover-foreground)',
  '--normal-border': 'var(--border)',
  '--success-bg': tint('--success', 10),
  '--success-border': tint('--success', 35),
  '--success-text': ink('--success'),
  '--error-bg': tint('--destructive', 8),
  '--error-border': tint('--destructive', 35),
  '--error-text': ink('--destructive'),
  '--warning-bg': tint('--warning', 18),
  '--warning-border': tint('--warning', 55),
  '--warning-text': 'var(--popover-foreground)',
  '--info-bg': tint('--primary', 8),
  '--info-border': tint('--primary', 30),
  '--info-text': 'var(--popover-foreground)',
  '--border-radius': 'var(--radius)',
} as React.CSSProperties

/** Mount once near the app root. Show toasts with `import { toast } from 'sonner'`. */
function Toaster({ style, toastOptions, ...props }: ToasterProps) {
  return (
    <Sonner
      theme="light"
      richColors
      closeButton
      className="toaster group"
      style={{ ...themeVars, ...style }}
      toastOptions={{
        // Not "Close toast" (sonner's): a page with a dialog open and a toast showing would then
        // have two buttons whose names contain "Close", and "the dialog's Close" would be ambiguous.
        closeButtonAriaLabel: 'Dismiss notification',
        ...toastOptions,
        classNames: {
          toast: 'font-sans shadow-lg',
          title: 'font-medium',
          description: 'opacity-90',
          ...toastOptions?.classNames,
        },
      }}
      {...props}
    />
  )
}

export { Toaster }
