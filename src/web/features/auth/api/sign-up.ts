import { useMutation } from '@tanstack/react-query';
import { authClient } from '../../../lib/auth-client';
import { AuthError } from './auth-error';

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

export async function signUp(input: SignUpInput) {
  const email = input.email.trim();
  const name = input.displayName.trim() || defaultDisplayName(email);
  const { data, error } = await authClient.signUp.email({ email, password: input.password, name });
  if (error) throw new AuthError(error);
  return data;
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
