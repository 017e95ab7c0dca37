import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';

// Checked here (the forms use noValidate) so the reason shows in the message area, where a
// person and a screen reader both find it, instead of in a browser bubble.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// What the server's sign-up accepts (better-auth checks with zod's email pattern, zod v4
// core/regexes.ts `email`): letters A-Z only. An address this form let through and the server then
// refused came back as "[body.email] Invalid email address".
const SERVER_EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

export function checkEmail(email: string): string | null {
  const address = email.trim();
  if (!address) return 'Please enter your email address';
  if (!EMAIL.test(address)) return 'Please enter a valid email address';
  if (!SERVER_EMAIL.test(address)) {
    // eslint-disable-next-line no-control-regex -- "outside ASCII" is the point
    return /[^\x00-\x7f]/.test(address)
      ? 'This site cannot use email addresses with letters outside A-Z yet. Please use another address.'
      : 'Please enter a valid email address';
  }
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
