// The toaster's dismiss button must not be another "Close": with a dialog open and a toast
// showing, "the dialog's Close button" has to stay one button.
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { Toaster } from './sonner';

describe('Toaster', () => {
  it('names its dismiss button without "Close"', async () => {
    render(<Toaster />);
    act(() => void toast.success('User added'));
    expect(await screen.findByRole('button', { name: 'Dismiss notification' })).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: /close/i })).toEqual([]);
  });
});
