import { useId, useState, type FormEvent } from 'react';
import { LogIn } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useSignIn } from '../api/sign-in';
import { PasswordField } from './password-field';
import type { AuthNotice } from './auth-message';
import { checkEmail, checkSignInPassword } from './auth-validation';

interface SignInFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onNotice: (notice: AuthNotice | null) => void;
  onSignedIn: () => void;
}

export function SignInForm({ email, onEmailChange, onNotice, onSignedIn }: SignInFormProps) {
  const emailId = useId();
  const [password, setPassword] = useState('');
  const signIn = useSignIn();

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = checkEmail(email) ?? checkSignInPassword(password);
    if (problem) return onNotice({ kind: 'error', text: problem });
    onNotice(null);
    signIn.mutate(
      { email, password },
      {
        onSuccess: onSignedIn,
        onError: (err) => onNotice({ kind: 'error', text: err.message }),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Sign in">
      <div className="grid gap-2">
        <Label htmlFor={emailId}>Email</Label>
        <Input
          id={emailId}
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
