import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';

// Checked here (the forms use noValidate) so the reason shows in the message area, where a
// person and a screen reader both find it, instead of in a browser bubble.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string): string | null {
  if (!email.trim()) return 'Please enter your email address';
  if (!EMAIL.test(email.trim())) return 'Please enter a valid email address';
  return null;
}

export function checkSignInPassword(password: string): string | null {
  return password ? null : 'Please enter your password';
}

export function checkNewPassword(password: string): string | null {
  return password.length >= limits.passwordMin ? null : messages.auth.passwordHint;
}

export type AuthField = 'email' | 'password';

/**
 * The fields a server's message is about, so they can be marked invalid and tied to it
 * ("Invalid email or password" names both; a rate limit names neither).
 */
export function fieldsNamedIn(message: string): AuthField[] {
  const fields: AuthField[] = [];
  if (/e-?mail/i.test(message)) fields.push('email');
  if (/password/i.test(message)) fields.push('password');
  return fields;
}
