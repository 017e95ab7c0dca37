import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { useChangePassword } from '../api/change-password';
import { PasswordField } from './password-field';

const EMPTY = { currentPassword: '', newPassword: '' };

/**
 * Change Password, opened by `trigger`. Saving signs the person out everywhere else, and the
 * dialog says so before and after.
 */
export function ChangePasswordDialog({ trigger }: { trigger: ReactElement }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const change = useChangePassword();
  const problemId = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!draft.currentPassword || draft.newPassword.length < limits.passwordMin) {
      setProblem(messages.auth.passwordHint);
      return;
    }
    setProblem(null);
    change.mutate(draft, {
      onSuccess: () => {
        toast.success(messages.auth.passwordChanged, { description: messages.auth.otherSessionsSignedOut });
        setDraft(EMPTY);
        setOpen(false);
      },
      onError: (err) => setProblem(err.message),
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (change.isPending) return;
        setOpen(next);
        if (!next) {
          setProblem(null);
          setDraft(EMPTY);
        }
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Change Password</DialogTitle>
          <DialogDescription>Saving a new password signs you out on your other devices.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <PasswordField
            label="Current Password"
            autoComplete="current-password"
            value={draft.currentPassword}
            onChange={(e) => setDraft((d) => ({ ...d, currentPassword: e.target.value }))}
          />
          <PasswordField
            label="New Password"
            autoComplete="new-password"
            hint={messages.auth.passwordHint}
            maxLength={limits.passwordMax}
            value={draft.newPassword}
            onChange={(e) => setDraft((d) => ({ ...d, newPassword: e.target.value }))}
          />
          {problem && (
            <p id={problemId} role="alert" className="text-sm font-medium text-destructive">
              {problem}
            </p>
          )}
          <DialogFooter>
            <Button type="submit" disabled={change.isPending}>
              Change Password
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
