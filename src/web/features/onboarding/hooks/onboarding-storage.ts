// Where onboarding remembers itself, per user: completion in localStorage (kept for good),
// "already shown" in sessionStorage (forgotten when the browser session ends).
// Storage can be unavailable (privacy modes, quotas): then onboarding simply shows again.

export const onboardingCompletedKey = (userId: string) => `kindred:onboarding-completed:${userId}`;
export const onboardingShownKey = (userId: string) => `kindred:onboarding-shown:${userId}`;

function read(storage: () => Storage, key: string): boolean {
  try {
    return storage().getItem(key) === 'true';
  } catch {
    return false;
  }
}

function write(storage: () => Storage, key: string) {
  try {
    storage().setItem(key, 'true');
  } catch {
    // Nothing to do: the worst case is that onboarding shows once more.
  }
}

export const onboardingStorage = {
  isCompleted: (userId: string) => read(() => window.localStorage, onboardingCompletedKey(userId)),
  markCompleted: (userId: string) => write(() => window.localStorage, onboardingCompletedKey(userId)),
  wasShown: (userId: string) => read(() => window.sessionStorage, onboardingShownKey(userId)),
  markShown: (userId: string) => write(() => window.sessionStorage, onboardingShownKey(userId)),
};
