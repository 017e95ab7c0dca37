import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { AppRoutes } from '../../../app/app-routes';
import { fakeApi } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { messages } from '../../../../shared/messages';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

function SearchProbe() {
  return <output data-testid="search">{useLocation().search}</output>;
}

const openAt = (path: string) =>
  renderApp(
    <>
      <AppRoutes />
      <SearchProbe />
    </>,
    { path },
  );

describe('after a confirmation link (the server redirects to / with ?error=)', () => {
  it.each([
    ['TOKEN_EXPIRED', messages.auth.verificationLinkExpired],
    ['INVALID_TOKEN', messages.auth.verificationLinkInvalid],
  ])('?error=%s: says what happened and how to get a new link, with a way to sign in, and clears the parameter', async (code, text) => {
    fakeApi({ user: null });
    const app = openAt(`/?error=${code}&docs=keep-me`);
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(text);
    expect(text).toMatch(/Sign in/);
    // Reloading or sharing the address does not bring the message back; other parameters stay.
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?docs=keep-me'));
    expect(screen.getByRole('alert')).toHaveTextContent(text);

    await userEvent.setup().click(within(notice).getByRole('link', { name: 'Sign In' }));
    await waitFor(() => expect(app.location()).toBe('/auth'));
  });

  it('can be dismissed', async () => {
    fakeApi({ user: null });
    openAt('/?error=TOKEN_EXPIRED');
    const notice = await screen.findByRole('alert');
    await userEvent.setup().click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('ignores an ?error= it does not know, and shows nothing without one', async () => {
    fakeApi({ user: null });
    openAt('/?error=SOMETHING_ELSE');
    expect(await screen.findByText('No public personalities available')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
