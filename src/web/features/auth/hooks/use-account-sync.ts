// One tab must never show one account while acting as another: the session cookie is shared by
// every tab, so a sign-in or sign-out in one tab (or a session ending on the server) silently
// changes who this tab's requests act as. This hook re-reads who is signed in when another tab
// says so, when the tab becomes visible again, and when a request answers 401; when the account
// differs from the one shown, it drops everything fetched as the old one and starts over at "/".
import { useEffect, useRef, useState } from 'react';
import { hashKey, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { isOwnAccountChange, onAccountChangeElsewhere, onSessionEnded } from '../../../lib/auth-sync';
import { authKeys, meQueryOptions } from '../api/get-me';

export const accountSyncMessages = {
  signedInElsewhere: (email: string) => `You signed in as ${email} in another tab.`,
  signedOutElsewhere: 'You were signed out in another tab.',
  accountDeletedElsewhere: 'Your account was deleted in another tab.',
  sessionEnded: 'You were signed out. Sign in again to continue.',
};

type ShownUser = { id: string; email: string } | null;

function userOf(data: unknown): ShownUser | undefined {
  if (!data || typeof data !== 'object') return undefined;
  return (data as { user?: ShownUser }).user ?? null;
}

/** What made this tab look again: another tab's announcement (a deletion, said so), or anything else. */
type Cause = 'other-tab' | 'account-deleted' | 'session-check';

function tellPerson(now: ShownUser, cause: Cause, signIn: () => void) {
  const message = now
    ? accountSyncMessages.signedInElsewhere(now.email)
    : cause === 'account-deleted'
      ? accountSyncMessages.accountDeletedElsewhere
      : cause === 'other-tab'
        ? accountSyncMessages.signedOutElsewhere
        : accountSyncMessages.sessionEnded;
  // One id: a burst of failing requests, or two signals for one change, shows a single toast.
  toast(message, {
    id: 'account-changed',
    duration: 10_000,
    // No account to sign in to after a deletion.
    action: now || cause === 'account-deleted' ? undefined : { label: 'Sign In', onClick: signIn },
  });
}

/** Everything cached was fetched as the old account; only the fresh answer of who is signed in stays. */
function forgetOldAccount(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
}

/**
 * Mount once, inside the router. Returns a number that changes on every switch of account: key the
 * screens with it so open dialogs and half-filled forms of the old account are left, not reused.
 */
export function useAccountSync(): number {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // useNavigate's function changes with the location; the listeners below live for the whole app.
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let cause: Cause = 'session-check';
    let shown = userOf(queryClient.getQueryData(authKeys.me()));

    const recheck = (why: Cause) => {
      cause = why;
      // A failed look leaves things as they are; the next signal looks again.
      queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 }).catch(() => undefined);
    };

    // Every new answer of who is signed in, whoever fetched it (this hook, the header, a sign-in).
    const unsubscribeCache = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      if (event.query.queryHash !== hashKey(authKeys.me())) return;
      const now = userOf(event.query.state.data);
      const before = shown;
      shown = now;
      if (now === undefined || before === undefined || (before?.id ?? null) === (now?.id ?? null)) return;
      // This tab's own sign-in or sign-out already switched its screens over.
      if (isOwnAccountChange(now?.id ?? null)) return;
      forgetOldAccount(queryClient);
      setGeneration((g) => g + 1);
      void navigateRef.current('/');
      tellPerson(now, cause, () => void navigateRef.current('/auth'));
      cause = 'session-check';
    });

    const stopListeningToTabs = onAccountChangeElsewhere((reason) => recheck(reason === 'deleted' ? 'account-deleted' : 'other-tab'));
    // A 401 while anonymous is just a refusal; while signed in it may mean the session ended.
    const stopListeningTo401 = onSessionEnded(() => {
      if (shown) recheck('session-check');
    });
    const onVisible = () => {
      if (document.visibilityState === 'visible') recheck('session-check');
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      unsubscribeCache();
      stopListeningToTabs();
      stopListeningTo401();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [queryClient]);

  return generation;
}
