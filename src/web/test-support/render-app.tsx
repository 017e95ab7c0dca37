// Renders a screen with the app's real providers (query client, toaster, error boundary) inside
// a memory router, plus a probe showing the current location.
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router';
import { toast } from 'sonner';
import { AppProviders } from '../app/providers';

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" data-search={location.search}>
      {location.pathname}
    </output>
  );
}

export function renderApp(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  // Sonner keeps toasts in a module-level store and replays live ones into a new Toaster.
  toast.dismiss();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        <LocationProbe />
      </MemoryRouter>
    </AppProviders>,
  );
  return {
    ...result,
    queryClient,
    location: () => result.getByTestId('location').textContent,
    /** The path with its query string. */
    address: () => {
      const probe = result.getByTestId('location');
      return `${probe.textContent}${probe.dataset.search ?? ''}`;
    },
  };
}
