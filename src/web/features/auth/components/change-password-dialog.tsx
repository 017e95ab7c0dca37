import { useId, useRef, useState, type FormEvent, type ReactElement } from 'react';
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
import { DeleteAccountSection } from './delete-account-section';

const EMPTY = { currentPassword: '', newPassword: '' };

type Field = 'current' | 'new';

/**
 * Change Password, opened by `trigger`. Saving signs the person out everywhere else, and the
 * dialog says so before and after. Below it, apart, Delete Account (delete-account-section.tsx).
 */
export function ChangePasswordDialog({ trigger }: { trigger: ReactElement }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(EMPTY);
  const [problem, setProblem] = useState<{ text: string; fields: Field[] } | null>(null);
  const change = useChangePassword();
  const problemId = useId();
  const currentInput = useRef<HTMLInputElement>(null);
  const newInput = useRef<HTMLInputElement>(null);

  function fail(text: string, fields: Field[]) {
    setProblem({ text, fields });
    // The first field to put right takes focus; it is described by the problem.
    (fields[0] === 'current' ? currentInput : newInput).current?.focus();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const missing: Field[] = [];
    if (!draft.currentPassword) missing.push('current');
    if (draft.newPassword.length < limits.passwordMin) missing.push('new');
    if (missing.length > 0) return fail(messages.auth.passwordHint, missing);
    setProblem(null);
    change.mutate(draft, {
      onSuccess: () => {
        toast.success(messages.auth.passwordChanged, { description: messages.auth.otherSessionsSignedOut });
        setDraft(EMPTY);
        setOpen(false);
      },
      // The server refuses a wrong current password; a new one's length it names ("too short").
      onError: (err) => fail(err.message, /too (short|long)/i.test(err.message) ? ['new'] : ['current']),
    });
  }
  const errorFor = (field: Field) => (problem?.fields.includes(field) ? problemId : null);

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
            ref={currentInput}
            errorId={errorFor('current')}
            label="Current Password"
            autoComplete="current-password"
            value={draft.currentPassword}
            onChange={(e) => setDraft((d) => ({ ...d, currentPassword: e.target.value }))}
          />
          <PasswordField
            ref={newInput}
            errorId={errorFor('new')}
            label="New Password"
            autoComplete="new-password"
            hint={messages.auth.passwordHint}
            maxLength={limits.passwordMax}
            value={draft.newPassword}
            onChange={(e) => setDraft((d) => ({ ...d, newPassword: e.target.value }))}
          />
          {problem && (
            <p id={problemId} role="alert" className="text-sm font-medium text-destructive">
              {problem.text}
            </p>
          )}
          <DialogFooter>
            <Button type="submit" disabled={change.isPending}>
              Change Password
            </Button>
          </DialogFooter>
        </form>
        <DeleteAccountSection
          onDeleted={() => {
            setOpen(false);
            setProblem(null);
            setDraft(EMPTY);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
