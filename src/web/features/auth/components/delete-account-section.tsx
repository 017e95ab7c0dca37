import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';
import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { useDeleteAccount } from '../api/delete-account';
import { PasswordField } from './password-field';

/**
 * Delete Account, below the password change: the password first (the server insists on it), then a
 * confirmation, as deleting a personality has. Success ends the session (useDeleteAccount shows the
 * sign-in screen and says so); a refusal is told next to the field and nothing else changes.
 */
export function DeleteAccountSection({ onDeleted }: { onDeleted: () => void }) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const deletion = useDeleteAccount();
  const headingId = useId();
  const problemId = useId();
  const input = useRef<HTMLInputElement>(null);

  function fail(text: string) {
    setProblem(text);
    input.current?.focus();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) return fail(messages.auth.deletionPasswordRequired);
    setProblem(null);
    setConfirming(true);
  }

  function onConfirm() {
    deletion.mutate(password, {
      onSuccess: () => {
        setPassword('');
        onDeleted();
      },
      onError: (err) => fail(err.message),
    });
  }

  return (
    <section aria-labelledby={headingId} className="grid gap-3 border-t pt-4">
      <h3 id={headingId} className="text-sm font-semibold text-destructive">
        Delete Account
      </h3>
      <p className="text-sm text-muted-foreground">{messages.auth.deleteAccountWarning}</p>
      <form onSubmit={onSubmit} className="grid gap-3" noValidate>
        <PasswordField
          ref={input}
          errorId={problem ? problemId : null}
          // Not "Current password ...": a label lookup for the change's "Current Password" would find two.
          label="Your password, to confirm deletion"
          autoComplete="current-password"
          maxLength={limits.passwordMax}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {problem && (
          <p id={problemId} role="alert" className="text-sm font-medium text-destructive">
            {problem}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" variant="destructive" disabled={deletion.isPending}>
            Delete Account
          </Button>
        </div>
      </form>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete your account?</AlertDialogTitle>
            <AlertDialogDescription>{messages.auth.deleteAccountWarning}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={onConfirm}>
              Delete Account
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
