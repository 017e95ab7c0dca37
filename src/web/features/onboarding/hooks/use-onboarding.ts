import { useCallback, useEffect, useState } from 'react';
import { onboardingStorage } from './onboarding-storage';

export interface OnboardingState {
  open: boolean;
  /** Closing without finishing: it stays shown-for-this-session, so it will not come back until the next session. */
  close: () => void;
  /** "Get Started": recorded for good, never shown again to this user in this browser. */
  complete: () => void;
}

/**
 * Opens onboarding automatically once per browser session for a signed-in user who has not
 * completed it. Pass null while nobody is signed in (or the session is still being resolved).
 */
export function useOnboarding(userId: string | null): OnboardingState {
  const [openFor, setOpenFor] = useState<string | null>(null);

  useEffect(() => {
    if (!userId) {
      setOpenFor(null);
      return;
    }
    if (onboardingStorage.isCompleted(userId) || onboardingStorage.wasShown(userId)) return;
    // Marked as soon as it shows: a reload in the middle does not count as a new session.
    onboardingStorage.markShown(userId);
    setOpenFor(userId);
  }, [userId]);

  const close = useCallback(() => {
    if (openFor) onboardingStorage.markShown(openFor);
    setOpenFor(null);
  }, [openFor]);

  const complete = useCallback(() => {
    if (openFor) onboardingStorage.markCompleted(openFor);
    setOpenFor(null);
  }, [openFor]);

  return { open: openFor !== null && openFor === userId, close, complete };
}
