// The onboarding flags the app keeps in the browser (see features/onboarding/hooks/onboarding-storage.ts).
import type { Page } from '@playwright/test';

export const onboardingCompletedKey = (userId: string) => `kindred:onboarding-completed:${userId}`;
export const onboardingShownKey = (userId: string) => `kindred:onboarding-shown:${userId}`;

/** Marks onboarding completed for `userId` before any page script runs (on every navigation of this page). */
export async function skipOnboarding(page: Page, userId: string) {
  await page.addInitScript((key) => window.localStorage.setItem(key, 'true'), onboardingCompletedKey(userId));
}

export function readStorage(page: Page, area: 'localStorage' | 'sessionStorage', key: string) {
  return page.evaluate(([a, k]) => window[a as 'localStorage' | 'sessionStorage'].getItem(k!), [area, key] as const);
}
