import { useId, useState, type FormEvent } from 'react';
import { LogIn } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useSignIn } from '../api/sign-in';
import { AuthError } from '../api/auth-error';
import { PasswordField } from './password-field';
import type { AuthNotice } from './auth-message';
import { useAuthFieldErrors } from './use-auth-field-errors';
import { checkEmail, checkSignInPassword, fieldsNamedIn } from './auth-validation';

interface SignInFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onNotice: (notice: AuthNotice | null) => void;
  onSignedIn: () => void;
}

export function SignInForm({ email, onEmailChange, onNotice, onSignedIn }: SignInFormProps) {
  const emailId = useId();
  const [password, setPassword] = useState('');
  // The fields an error is about: marked invalid, described by the message, the first focused.
  const { emailInput, passwordInput, fail, clear, errorFor } = useAuthFieldErrors(onNotice);
  const signIn = useSignIn();

  function submit(event: FormEvent) {
    event.preventDefault();
    const emailProblem = checkEmail(email);
    if (emailProblem) return fail(emailProblem, ['email']);
    const passwordProblem = checkSignInPassword(password);
    if (passwordProblem) return fail(passwordProblem, ['password']);
    clear();
    signIn.mutate(
      { email, password },
      {
        onSuccess: onSignedIn,
        // "Email not verified" comes with the right e-mail and password: no field is wrong.
        onError: (err) => fail(err.message, err instanceof AuthError && err.code === 'EMAIL_NOT_VERIFIED' ? [] : fieldsNamedIn(err.message)),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Sign in">
      <div className="grid gap-2">
        <Label htmlFor={emailId}>Email</Label>
        <Input
          ref={emailInput}
          id={emailId}
          aria-invalid={errorFor('email') ? true : undefined}
          aria-describedby={errorFor('email') ?? undefined}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          placeholder="you@example.com"
          value={email}
          onChange={(e) => onEmailChange(e.target.value)}
        />
      </div>
      <PasswordField
        ref={passwordInput}
        errorId={errorFor('password')}
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Button type="submit" variant="mystical" size="lg" className="w-full" disabled={signIn.isPending}>
        <LogIn aria-hidden="true" />
        {signIn.isPending ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
