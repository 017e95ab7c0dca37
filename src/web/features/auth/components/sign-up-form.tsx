import { useId, useState, type FormEvent } from 'react';
import { UserPlus } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { defaultDisplayName, useSignUp } from '../api/sign-up';
import { PasswordField } from './password-field';
import type { AuthNotice } from './auth-message';
import { useAuthFieldErrors } from './use-auth-field-errors';
import { checkEmail, checkNewPassword, fieldsNamedIn } from './auth-validation';

interface SignUpFormProps {
  email: string;
  onEmailChange: (email: string) => void;
  onNotice: (notice: AuthNotice | null) => void;
  /** Called when sign-up also signed the person in (no mail server: no link to wait for). */
  onSignedIn: () => void;
}

export function SignUpForm({ email, onEmailChange, onNotice, onSignedIn }: SignUpFormProps) {
  const nameId = useId();
  const emailId = useId();
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  // The fields an error is about: marked invalid, described by the message, the first focused.
  const { emailInput, passwordInput, fail, clear, errorFor, errorText } = useAuthFieldErrors(onNotice);
  // A too-short password's error is the hint's own sentence: said once, in the message area (which
  // then describes the field), not twice on the page.
  const hint = errorText === messages.auth.passwordHint ? undefined : messages.auth.passwordHint;
  const signUp = useSignUp();
  const suggestedName = defaultDisplayName(email);

  function submit(event: FormEvent) {
    event.preventDefault();
    const emailProblem = checkEmail(email);
    if (emailProblem) return fail(emailProblem, ['email']);
    const passwordProblem = checkNewPassword(password);
    if (passwordProblem) return fail(passwordProblem, ['password']);
    clear();
    signUp.mutate(
      { email, password, displayName },
      {
        onSuccess: (result) => {
          setPassword('');
          if (result.signedIn) return onSignedIn();
          onNotice({ kind: 'confirmation', text: messages.auth.signUpSuccess });
        },
        onError: (err) => fail(err.message, fieldsNamedIn(err.message)),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Sign up">
      <div className="grid gap-2">
        <Label htmlFor={nameId}>
          Display Name <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id={nameId}
          autoComplete="nickname"
          maxLength={limits.displayNameMax}
          placeholder={suggestedName || 'How others will see you'}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </div>
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
          maxLength={limits.emailMax}
          placeholder="you@example.com"
          value={email}
          onChange={(e) => onEmailChange(e.target.value)}
        />
      </div>
      <PasswordField
        ref={passwordInput}
        errorId={errorFor('password')}
        autoComplete="new-password"
        required
        minLength={limits.passwordMin}
        maxLength={limits.passwordMax}
        hint={hint}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Button type="submit" variant="personality" size="lg" className="w-full" disabled={signUp.isPending}>
        <UserPlus aria-hidden="true" />
        {signUp.isPending ? 'Creating Account...' : 'Sign Up'}
      </Button>
    </form>
  );
}
