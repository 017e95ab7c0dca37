// Keeps every open tab honest about who is signed in. The session is one cookie shared by all tabs
// of the browser, so signing in or out in one tab changes the account the others act as; and a
// session can end on the server (expiry, a password change elsewhere) without this tab knowing.
// This module carries those signals; features/auth/hooks/use-account-sync reacts to them.

/** The BroadcastChannel all tabs of the app listen on. */
export const authChannelName = 'kindred:auth';
/** The localStorage key written when BroadcastChannel is missing (its 'storage' event is the signal). */
export const authStorageKey = 'kindred:auth-changed';

// A BroadcastChannel also delivers to the other channels of the same tab: the message names its tab.
const thisTab = Math.random().toString(36).slice(2);

/** undefined: no change of account expected from this tab's own sign-in, sign-up or sign-out. */
let expectedAccount: string | null | undefined;

/** Why another tab's account changed, when it is more than a sign-in or sign-out. */
export type AccountChangeReason = 'deleted';

/**
 * This tab signed in (as `userId`) or out (`null`): tell the other tabs to re-read who is signed
 * in, and remember that the coming change of account here is this tab's own doing, not news.
 * `reason` 'deleted': the account itself is gone (the other tabs say so, not "signed out").
 */
export function announceAccountChange(userId: string | null, reason?: AccountChangeReason): void {
  expectedAccount = userId;
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(authChannelName);
    channel.postMessage({ from: thisTab, ...(reason ? { reason } : {}) });
    channel.close();
    return;
  }
  try {
    localStorage.setItem(authStorageKey, `${thisTab}:${Date.now()}${reason ? `:${reason}` : ''}`);
  } catch {
    // Storage disabled: the other tabs still catch up when they become visible or get a 401.
  }
}

/** True once (then forgotten) when the account now shown is the one this tab itself switched to. */
export function isOwnAccountChange(userId: string | null): boolean {
  if (expectedAccount === undefined || expectedAccount !== userId) return false;
  expectedAccount = undefined;
  return true;
}

/** Calls `listener` whenever another tab signs in or out (with its reason, if any). Returns the unsubscribe. */
export function onAccountChangeElsewhere(listener: (reason?: AccountChangeReason) => void): () => void {
  const known = (value: unknown): AccountChangeReason | undefined => (value === 'deleted' ? value : undefined);
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(authChannelName);
    channel.onmessage = (event: MessageEvent<{ from?: string; reason?: unknown } | null>) => {
      if (event.data?.from !== thisTab) listener(known(event.data?.reason));
    };
    return () => channel.close();
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key === authStorageKey) listener(known(event.newValue?.split(':')[2]));
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

const sessionEndedListeners = new Set<() => void>();

/** An API call answered 401: the session this tab relies on may have ended. */
export function reportSessionEnded(): void {
  for (const listener of sessionEndedListeners) listener();
}

export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}
