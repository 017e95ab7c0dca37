import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { authClient } from '../../../lib/auth-client';
import { announceAccountChange } from '../../../lib/auth-sync';
import { messages } from '../../../../shared/messages';
import { AuthError } from './auth-error';
import { authKeys } from './get-me';

/** Deletes the signed-in person's account; the server insists on the password. */
export async function deleteAccount(password: string) {
  const { error } = await authClient.deleteUser({ password });
  if (error) throw new AuthError(error);
}

/**
 * Once the account is gone its session is too: like a sign-out, every cached answer is dropped,
 * the other tabs are told, and the sign-in screen shows with a toast saying what happened. A
 * failure (a wrong password) is the caller's to show, next to the field.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      announceAccountChange(null, 'deleted');
      queryClient.clear();
      queryClient.setQueryData(authKeys.me(), { user: null, isAdmin: false });
      toast.success(messages.auth.accountDeleted);
      void navigate('/auth', { replace: true });
    },
  });
}
