import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { authClient } from '../../../lib/auth-client';
import { announceAccountChange } from '../../../lib/auth-sync';
import { AuthError } from './auth-error';
import { authKeys } from './get-me';

export async function signOut() {
  const { error } = await authClient.signOut();
  if (error) throw new AuthError(error);
}

/**
 * Ends the session on the server, then drops every cached answer (they belonged to the signed-in
 * user), records the signed-out state so nothing flashes, and goes to /auth. The other tabs share
 * the session cookie, so they are told to look again too.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      announceAccountChange(null);
      queryClient.clear();
      queryClient.setQueryData(authKeys.me(), { user: null, isAdmin: false });
      void navigate('/auth', { replace: true });
    },
    onError: (err) => {
      toast.error(err.message);
    },
  });
}
