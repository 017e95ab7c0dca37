import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authClient } from '../../../lib/auth-client';
import { announceAccountChange } from '../../../lib/auth-sync';
import { AuthError } from './auth-error';
import { authKeys } from './get-me';

export interface SignInInput {
  email: string;
  password: string;
}

export async function signIn(input: SignInInput) {
  const { data, error } = await authClient.signIn.email({ email: input.email.trim(), password: input.password });
  if (error) throw new AuthError(error);
  return data;
}

/**
 * Signs in, then forgets every answer fetched as the previous viewer (an anonymous list must not
 * linger) and refetches who is signed in, so the header and guards switch over. The other tabs
 * share the session cookie: they are told to look again too.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: async (data) => {
      announceAccountChange(data.user.id);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== authKeys.all[0] });
      await queryClient.invalidateQueries({ queryKey: authKeys.all });
    },
  });
}
