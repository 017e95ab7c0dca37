// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'

import { Alert, AlertDescription, AlertTitle } from './alert'
import { Button, buttonVariants } from './button'
import { Checkbox } from './checkbox'
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from './dialog'

afterEach(cleanup)

const variants = ['default', 'destructive', 'outline', 'secondary', 'ghost', 'link', 'mystical', 'realm', 'personality'] as const
const sizes = ['default', 'sm', 'lg', 'xl', 'icon'] as const

describe('Button', () => {
  it('renders every variant with distinct classes', () => {
    render(
      <div>
        {variants.map((variant) => (
          <Button key={variant} variant={variant}>
            {variant}
          </Button>
        ))}
      </div>,
    )
    const classNames = variants.map((variant) => screen.getByRole('button', { name: variant }).className)
    expect(new Set(classNames).size).toBe(variants.length)
    expect(screen.getByRole('button', { name: 'mystical' })).toHaveClass('bg-gradient-mystical')
    expect(screen.getByRole('button', { name: 'destructive' })).toHaveClass('bg-destructive')
  })

  it('renders every size with distinct classes', () => {
    render(
      <div>
        {sizes.map((size) => (
          <Button key={size} size={size} aria-label={`size-${size}`}>
            x
          </Button>
        ))}
      </div>,
    )
    const classNames = sizes.map((size) => screen.getByRole('button', { name: `size-${size}` }).className)
    expect(new Set(classNames).size).toBe(sizes.length)
  })

  it('merges className and supports asChild', () => {
    render(
      <Button asChild variant="outline" className="px-10">
        <a href="/somewhere">Link button</a>
      </Button>,
    )
    const link = screen.getByRole('link', { name: 'Link button' })
    expect(link).toHaveClass('px-10')
    expect(link).not.toHaveClass('px-4')
    expect(buttonVariants({ variant: 'realm' })).toContain('bg-gradient-realm')
  })
})

describe('Dialog', () => {
  it('opens on trigger click and shows its title', async () => {
    const user = userEvent.setup()
    render(
      <Dialog>
        <DialogTrigger asChild>
          <Button>Summon</Button>
        </DialogTrigger>
        <DialogContent>
          <DialogTitle>Name your companion</DialogTitle>
          <DialogDescription>Every kindred spirit needs a name.</DialogDescription>
        </DialogContent>
      </Dialog>,
    )
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Summon' }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog).toHaveAccessibleName('Name your companion')
    expect(screen.getByText('Name your companion')).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})

describe('Checkbox', () => {
  it('toggles when clicked', async () => {
    const user = userEvent.setup()
    render(<Checkbox aria-label="Remember me" />)
    const checkbox = screen.getByRole('checkbox', { name: 'Remember me' })
    expect(checkbox).not.toBeChecked()
    await user.click(checkbox)
    expect(checkbox).toBeChecked()
    await user.click(checkbox)
    expect(checkbox).not.toBeChecked()
  })
})

describe('Alert', () => {
  it('destructive alert has role="alert"', () => {
    render(
      <Alert variant="destructive">
        <AlertTitle>Sign-in failed</AlertTitle>
        <AlertDescription>That link has expired.</AlertDescription>
      </Alert>,
    )
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Sign-in failed')
    expect(alert).toHaveClass('text-destructive')
  })
})
