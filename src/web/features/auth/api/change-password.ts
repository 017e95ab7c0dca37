import { useMutation } from '@tanstack/react-query';
import { authClient } from '../../../lib/auth-client';
import { AuthError } from './auth-error';

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

/** Changes the password; the person's other sessions are signed out (the server insists too). */
export async function changePassword(input: ChangePasswordInput) {
  const { error } = await authClient.changePassword({ ...input, revokeOtherSessions: true });
  if (error) throw new AuthError(error);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
