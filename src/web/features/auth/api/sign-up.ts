import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authClient } from '../../../lib/auth-client';
import { announceAccountChange } from '../../../lib/auth-sync';
import { AuthError } from './auth-error';
import { authKeys } from './get-me';

export interface SignUpInput {
  email: string;
  password: string;
  /** Optional; blank means the part of the e-mail before the @. */
  displayName: string;
}

/** The spec's default display name: the part of the e-mail before the @. */
export function defaultDisplayName(email: string): string {
  return email.trim().split('@')[0] ?? '';
}

export interface SignUpResult {
  /**
   * True when the server signed the person in at once (no mail server configured: no link could
   * ever arrive); false when a confirmation link was e-mailed and sign-in waits for it.
   */
  signedIn: boolean;
  /** The new account's id (the account this tab now acts as, when signedIn). */
  userId?: string;
}

export async function signUp(input: SignUpInput): Promise<SignUpResult> {
  const email = input.email.trim();
  const name = input.displayName.trim() || defaultDisplayName(email);
  const { data, error } = await authClient.signUp.email({ email, password: input.password, name });
  if (error) throw new AuthError(error);
  // better-auth answers a token only when it opened a session (autoSignIn without verification).
  return { signedIn: typeof data?.token === 'string' && data.token.length > 0, userId: data?.user?.id };
}

/**
 * Signs up; when that signed the person in, switches every cached answer (and the other tabs) over
 * as sign-in does.
 */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: async (result) => {
      if (!result.signedIn) return;
      announceAccountChange(result.userId ?? null);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      await queryClient.invalidateQueries({ queryKey: authKeys.all });
    },
  });
}
