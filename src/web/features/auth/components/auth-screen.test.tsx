import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from '../../../app/app-routes';
import { ada, fakeApi } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { messages } from '../../../../shared/messages';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const openAuth = () => renderApp(<AppRoutes />, { path: '/auth' });
const passwordInput = () => screen.getByLabelText('Password', { selector: 'input' });

async function signUpTab() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('tab', { name: 'Sign Up' }));
  return user;
}

describe('auth screen', () => {
  it('has Sign In and Sign Up tabs; only Sign Up asks for a display name and shows the password hint', async () => {
    fakeApi();
    openAuth();
    expect(await screen.findByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    expect(screen.queryByLabelText(/Display Name/)).toBeNull();
    expect(screen.queryByText('Password must be at least 6 characters long')).toBeNull();

    await signUpTab();
    expect(screen.getByRole('tab', { name: 'Sign Up', selected: true })).toBeInTheDocument();
    expect(screen.getByLabelText(/Display Name/)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(passwordInput()).toHaveAccessibleDescription('Password must be at least 6 characters long');
  });

  it('toggles the password between hidden and visible', async () => {
    fakeApi();
    openAuth();
    const user = userEvent.setup();
    await screen.findByRole('tab', { name: 'Sign In' });
    expect(passwordInput()).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(passwordInput()).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(passwordInput()).toHaveAttribute('type', 'password');
    // "The field labelled Password" is the field alone: the toggle is named by its title, which
    // label lookups (here, Playwright's getByLabel, screen readers' form lists) do not read.
    expect(screen.getAllByLabelText('Password', { exact: false })).toEqual([passwordInput()]);
  });

  it('signs up with the part of the e-mail before the @ when no display name is given, then confirms in default style', async () => {
    const api = fakeApi();
    openAuth();
    const user = await signUpTab();
    await user.type(screen.getByLabelText('Email'), 'grace.hopper@example.com');
    expect(screen.getByLabelText(/Display Name/)).toHaveAttribute('placeholder', 'grace.hopper');
    await user.type(passwordInput(), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const message = await screen.findByTestId('auth-message');
    expect(message).toHaveTextContent('Check your email for a confirmation link!');
    expect(message).toHaveAttribute('role', 'status');
    expect(message).toHaveAttribute('data-variant', 'default');
    expect(message).not.toHaveClass('text-destructive');
    expect(api.callsTo('POST', '/api/auth/sign-up/email')[0]!.body).toEqual({
      email: 'grace.hopper@example.com',
      password: 'secret123',
      name: 'grace.hopper',
    });
  });

  it('with no mail server, sign-up signs the person in and goes to / (no confirmation message)', async () => {
    let signedUp = false;
    const grace = { id: 'user-grace', email: 'grace@example.com', displayName: 'grace' };
    localStorage.setItem('kindred:onboarding-completed:user-grace', 'true');
    const api = fakeApi({
      override: (call) => {
        if (call.path === '/api/auth/sign-up/email') {
          signedUp = true;
          const now = '2026-01-01T00:00:00.000Z';
          return { status: 200, body: { token: 'session-token', user: { id: grace.id, email: grace.email, name: 'grace', emailVerified: false, image: null, createdAt: now, updatedAt: now } } };
        }
        if (call.path === '/api/me' && signedUp) return { status: 200, body: { user: grace, isAdmin: false } };
        return undefined;
      },
    });
    const app = openAuth();
    const user = await signUpTab();
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(passwordInput(), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(app.location()).toBe('/'));
    expect(screen.queryByText('Check your email for a confirmation link!')).toBeNull();
    expect(api.callsTo('GET', '/api/me').length).toBeGreaterThanOrEqual(2);
    const header = await screen.findByRole('navigation', { name: 'Account' });
    expect(await within(header).findByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('sends the display name typed by the person', async () => {
    const api = fakeApi();
    openAuth();
    const user = await signUpTab();
    await user.type(screen.getByLabelText(/Display Name/), '  Amazing Grace ');
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(passwordInput(), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await screen.findByText('Check your email for a confirmation link!');
    expect(api.callsTo('POST', '/api/auth/sign-up/email')[0]!.body).toMatchObject({ name: 'Amazing Grace' });
  });

  it("shows the server's error in destructive style", async () => {
    fakeApi({
      override: (call) =>
        call.path === '/api/auth/sign-up/email'
          ? { status: 422, body: { code: 'USER_ALREADY_EXISTS', message: 'User already exists. Use another email.' } }
          : undefined,
    });
    openAuth();
    const user = await signUpTab();
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.type(passwordInput(), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const message = await screen.findByRole('alert');
    expect(message).toHaveTextContent('User already exists. Use another email.');
    expect(message).toHaveAttribute('data-variant', 'destructive');
    expect(message).toHaveClass('text-destructive');
  });

  it('falls back to "An unexpected error occurred" when the server gives no message', async () => {
    fakeApi({ override: (call) => (call.path === '/api/auth/sign-in/email' ? { status: 500 } : undefined) });
    openAuth();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(passwordInput(), 'whatever1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error occurred');
  });

  it('shows our own error shape too (rate limits answer { error: { message } })', async () => {
    fakeApi({
      override: (call) =>
        call.path === '/api/auth/sign-in/email'
          ? { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a few minutes before trying again.' } } }
          : undefined,
    });
    openAuth();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(passwordInput(), 'whatever1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Please wait a few minutes before trying again.');
  });

  it('refuses a short password before calling the server', async () => {
    const api = fakeApi();
    openAuth();
    const user = await signUpTab();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(passwordInput(), 'abc');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 6 characters long');
    expect(api.callsTo('POST', '/api/auth/sign-up/email')).toHaveLength(0);
    // The hint says the same sentence: it is said once, and the field is described by the error.
    expect(screen.getAllByText('Password must be at least 6 characters long')).toHaveLength(1);
    expect(passwordInput()).toHaveAccessibleDescription('Password must be at least 6 characters long');
  });

  it.each([
    ['letters outside A-Z', 'zoë@example.com', 'This site cannot use email addresses with letters outside A-Z yet. Please use another address.'],
    ['a one-letter top-level domain', 'ada@example.c', 'Please enter a valid email address'],
  ])('refuses an address the server would refuse (%s) with a plain message, before calling it', async (_what, email, shown) => {
    const api = fakeApi();
    openAuth();
    const user = await signUpTab();
    await user.type(screen.getByLabelText('Email'), email);
    await user.type(passwordInput(), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
    expect(api.callsTo('POST', '/api/auth/sign-up/email')).toHaveLength(0);
  });

  it('signs in, refreshes who is signed in, and goes to /', async () => {
    const api = fakeApi();
    // The fake signs in as 'user-signed-in'; keep onboarding (a modal) out of the way.
    localStorage.setItem('kindred:onboarding-completed:user-signed-in', 'true');
    const app = openAuth();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(passwordInput(), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(app.location()).toBe('/'));
    expect(api.callsTo('POST', '/api/auth/sign-in/email')[0]!.body).toEqual({ email: 'ada@example.com', password: 'secret123' });
    expect(api.callsTo('GET', '/api/me').length).toBeGreaterThanOrEqual(2);
    const header = await screen.findByRole('navigation', { name: 'Account' });
    expect(await within(header).findByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('sends a signed-in visitor to /', async () => {
    fakeApi({ user: ada });
    const app = openAuth();
    await waitFor(() => expect(app.location()).toBe('/'));
    expect(screen.queryByRole('tab', { name: 'Sign In' })).toBeNull();
  });

  it('has one h1, the card title', async () => {
    fakeApi();
    openAuth();
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await signUpTab();
    expect(screen.getByRole('heading', { level: 1, name: 'Join Kindred' })).toBeInTheDocument();
  });

  it('ties a sign-in error to the field it is about, and focuses that field', async () => {
    const api = fakeApi();
    openAuth();
    const user = userEvent.setup();
    const email = await screen.findByLabelText('Email');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your email address');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter your email address');
    expect(email).toHaveFocus();
    expect(passwordInput()).not.toHaveAttribute('aria-invalid');

    await user.type(email, 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your password');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput()).toHaveAccessibleDescription('Please enter your password');
    expect(passwordInput()).toHaveFocus();
    expect(api.callsTo('POST', '/api/auth/sign-in/email')).toHaveLength(0);
  });

  it("marks the fields the server's refusal names, and focuses the first", async () => {
    fakeApi({
      override: (call) =>
        call.path === '/api/auth/sign-in/email' ? { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } } : undefined,
    });
    openAuth();
    const user = userEvent.setup();
    const email = await screen.findByLabelText('Email');
    await user.type(email, 'ada@example.com');
    await user.type(passwordInput(), 'wrong-one');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    for (const field of [email, passwordInput()]) {
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription('Invalid email or password');
    }
    expect(email).toHaveFocus();
  });

  it('ties a sign-up password error to the password field', async () => {
    fakeApi();
    openAuth();
    const user = await signUpTab();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(passwordInput(), 'abc');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    const message = await screen.findByRole('alert');
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput().getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(passwordInput()).toHaveFocus();
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
  });

  it('an unconfirmed account: shows that a new link was sent, and marks no field (the e-mail and password were right)', async () => {
    const text = messages.auth.emailNotVerifiedLinkSent('ada@example.com');
    fakeApi({
      override: (call) => (call.path === '/api/auth/sign-in/email' ? { status: 403, body: { code: 'EMAIL_NOT_VERIFIED', message: text } } : undefined),
    });
    openAuth();
    const user = userEvent.setup();
    const email = await screen.findByLabelText('Email');
    await user.type(email, 'ada@example.com');
    await user.type(passwordInput(), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByTestId('auth-message')).toHaveTextContent(text);
    for (const field of [email, passwordInput()]) expect(field).not.toHaveAttribute('aria-invalid');
  });
});
