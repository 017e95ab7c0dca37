// Accounts for the browser flows, made through the real auth API with the page's own request
// context (page.request shares the browser context's cookies, so signing in here signs the page
// in). Every flow uses fresh e-mail addresses, so flows stay independent within one server run.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { skipOnboarding } from './onboarding';

// sharing-admin.spec.ts signs admin@example.com up with this same password: whichever flow
// creates the shared admin account first, the others can sign in.
export const PASSWORD = 'kindred-e2e-password';
/** Granted admin by the server's ADMIN_EMAILS (see playwright.config.ts); shared by the flows that need an admin. */
export const ADMIN_EMAIL = 'admin@example.com';

export interface Account {
  id: string;
  email: string;
  password: string;
  displayName: string;
}

export interface MeAnswer {
  user: { id: string; email: string; displayName: string } | null;
  isAdmin: boolean;
}

let counter = 0;

/** A new address each call: label, time, worker and a counter keep it unique across workers and retries. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  const stamp = Date.now().toString(36);
  const rand = Math.random().toString(36).slice(2, 6);
  return `${label}-${stamp}-w${test.info().parallelIndex}-${counter}${rand}@example.com`;
}

/** The app's origin: better-auth refuses cookie-carrying POSTs from any other Origin (CSRF check). */
export function appOrigin(): string {
  const baseURL = test.info().project.use.baseURL;
  if (!baseURL) throw new Error('playwright.config.ts must set use.baseURL');
  return new URL(baseURL).origin;
}

export function originHeaders(): Record<string, string> {
  return { origin: appOrigin() };
}

export function signUpViaApi(request: APIRequestContext, email: string, password = PASSWORD, name = '') {
  return request.post('/api/auth/sign-up/email', { data: { email, password, name }, headers: originHeaders() });
}

export function signInViaApi(request: APIRequestContext, email: string, password = PASSWORD) {
  return request.post('/api/auth/sign-in/email', { data: { email, password }, headers: originHeaders() });
}

export async function signOutViaApi(request: APIRequestContext) {
  const res = await request.post('/api/auth/sign-out', { data: {}, headers: originHeaders() });
  expect(res.status(), await res.text()).toBe(200);
}

export async function getMe(request: APIRequestContext): Promise<MeAnswer> {
  const res = await request.get('/api/me');
  expect(res.status()).toBe(200);
  return (await res.json()) as MeAnswer;
}

async function signInAndDescribe(request: APIRequestContext, email: string, password: string): Promise<Account> {
  const signIn = await signInViaApi(request, email, password);
  expect(signIn.status(), `sign-in as ${email}: ${await signIn.text()}`).toBe(200);
  const { user } = await getMe(request);
  expect(user?.email).toBe(email);
  return { id: user!.id, email, password, displayName: user!.displayName };
}

/** Signs up and signs in a new account through the API. */
export async function createAccount(request: APIRequestContext, opts: { label?: string; displayName?: string } = {}) {
  const email = uniqueEmail(opts.label);
  const res = await signUpViaApi(request, email, PASSWORD, opts.displayName ?? '');
  expect(res.status(), `sign-up ${email}: ${await res.text()}`).toBe(200);
  return signInAndDescribe(request, email, PASSWORD);
}

/**
 * A new account signed in in `page`'s browser context. Onboarding is marked completed unless the
 * flow is about onboarding, so its modal does not hide the page from the locators.
 */
export async function signedInUser(page: Page, opts: { label?: string; displayName?: string; onboarding?: boolean } = {}) {
  const account = await createAccount(page.request, opts);
  if (!opts.onboarding) await skipOnboarding(page, account.id);
  return account;
}

/**
 * Signs in admin@example.com in `request`'s context, signing it up first when this server run has
 * not seen it yet. Two workers may race to sign it up: whichever loses just signs in.
 */
export async function adminAccount(request: APIRequestContext): Promise<Account> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const signIn = await signInViaApi(request, ADMIN_EMAIL);
    if (signIn.ok()) break;
    await signUpViaApi(request, ADMIN_EMAIL, PASSWORD, 'Admin');
  }
  const account = await signInAndDescribe(request, ADMIN_EMAIL, PASSWORD);
  const { isAdmin } = await getMe(request);
  expect(isAdmin, 'ADMIN_EMAILS must grant admin@example.com the admin role').toBe(true);
  return account;
}

/** admin@example.com signed in in `page`'s context, with onboarding out of the way. */
export async function signedInAdmin(page: Page): Promise<Account> {
  const account = await adminAccount(page.request);
  await skipOnboarding(page, account.id);
  return account;
}
