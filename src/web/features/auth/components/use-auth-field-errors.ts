// The sign-in and sign-up forms' error handling: the error goes to the shared message area, and
// the fields it is about are marked invalid, described by that message, and the first one takes
// focus (a screen reader then reads it with the error).
import { useRef, useState } from 'react';
import { AUTH_MESSAGE_ID, type AuthNotice } from './auth-message';
import type { AuthField } from './auth-validation';

export function useAuthFieldErrors(onNotice: (notice: AuthNotice | null) => void) {
  const [invalid, setInvalid] = useState<AuthField[]>([]);
  const [errorText, setErrorText] = useState<string | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  function fail(text: string, fields: AuthField[]) {
    onNotice({ kind: 'error', text });
    setErrorText(text);
    setInvalid(fields);
    (fields[0] === 'email' ? emailInput : fields[0] === 'password' ? passwordInput : null)?.current?.focus();
  }

  function clear() {
    onNotice(null);
    setErrorText(null);
    setInvalid([]);
  }

  /** The message area's id when the error is about `field` (its aria-describedby), else null. */
  const errorFor = (field: AuthField) => (invalid.includes(field) ? AUTH_MESSAGE_ID : null);

  return { emailInput, passwordInput, fail, clear, errorFor, errorText };
}
