import { useId, useRef, useState, type FormEvent } from 'react';
import { LogIn } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useSignIn } from '../api/sign-in';
import { PasswordField } from './password-field';
import { AUTH_MESSAGE_ID, type AuthNotice } from './auth-message';
import { checkEmail, checkSignInPassword, fieldsNamedIn, type AuthField } from './auth-validation';

interface SignInFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onNotice: (notice: AuthNotice | null) => void;
  onSignedIn: () => void;
}

export function SignInForm({ email, onEmailChange, onNotice, onSignedIn }: SignInFormProps) {
  const emailId = useId();
  const [password, setPassword] = useState('');
  // The fields the message area's error is about: marked invalid, described by it.
  const [invalid, setInvalid] = useState<AuthField[]>([]);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const signIn = useSignIn();

  function fail(text: string, fields: AuthField[]) {
    onNotice({ kind: 'error', text });
    setInvalid(fields);
    // The first field to put right takes focus (a screen reader reads it with the error).
    (fields[0] === 'email' ? emailInput : fields[0] === 'password' ? passwordInput : null)?.current?.focus();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const emailProblem = checkEmail(email);
    if (emailProblem) return fail(emailProblem, ['email']);
    const passwordProblem = checkSignInPassword(password);
    if (passwordProblem) return fail(passwordProblem, ['password']);
    onNotice(null);
    setInvalid([]);
    signIn.mutate(
      { email, password },
      {
        onSuccess: onSignedIn,
        onError: (err) => fail(err.message, fieldsNamedIn(err.message)),
      },
    );
  }
  const errorFor = (field: AuthField) => (invalid.includes(field) ? AUTH_MESSAGE_ID : null);

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
