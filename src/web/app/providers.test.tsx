// Toasts on a phone drop from the top (at the bottom they covered the message box and Send); on a
// wider screen they stay at the bottom right, and follow the window when it is resized.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { AppProviders, PHONE_TOASTS_QUERY } from './providers';

/** A matchMedia whose phone query matches while `phone.matches`; `resize` tells its listeners. */
function fakeMatchMedia(initiallyPhone: boolean) {
  const listeners = new Set<() => void>();
  const state = { matches: initiallyPhone };
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === PHONE_TOASTS_QUERY && state.matches;
    },
    media: query,
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  }));
  return {
    resize(phone: boolean) {
      state.matches = phone;
      for (const l of listeners) l();
    },
  };
}

const toastList = () => document.querySelector('[data-sonner-toaster]');

afterEach(() => {
  vi.unstubAllGlobals();
  toast.dismiss();
});

describe('AppProviders toasts', () => {
  it('drop from the top on a phone, and move to the bottom right when the window widens', async () => {
    const media = fakeMatchMedia(true);
    render(<AppProviders>page</AppProviders>);
    act(() => void toast.error('Upload Error'));
    expect(await screen.findByText('Upload Error')).toBeInTheDocument();
    expect(toastList()).toHaveAttribute('data-y-position', 'top');
    expect(toastList()).toHaveAttribute('data-x-position', 'center');
    act(() => media.resize(false));
    expect(toastList()).toHaveAttribute('data-y-position', 'bottom');
    expect(toastList()).toHaveAttribute('data-x-position', 'right');
  });
});
