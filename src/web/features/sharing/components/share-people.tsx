// "Add a user by email" and the "Shared with (n)" list with remove buttons. Adding to a private
// personality makes it shared on the server; the new level is passed up.
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LoaderCircleIcon, UserPlusIcon, XIcon } from 'lucide-react';
import type { SharingType } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useAddShare } from '../api/add-share';
import { useListShares } from '../api/list-shares';
import { useRemoveShare } from '../api/remove-share';

interface Props {
  personalityId: string;
  onLevelChanged: (level: SharingType) => void;
}

export function SharePeople({ personalityId, onLevelChanged }: Props) {
  const [email, setEmail] = useState('');
  // The refusal is shown once, under the field, as an alert: not as a toast, which is hidden from
  // screen readers while this dialog is open (everything outside a modal dialog is) and is not
  // tied to the field; and not as both, which would put the words on the page twice.
  const [addError, setAddError] = useState<string | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const shares = useListShares(personalityId, true);
  const add = useAddShare();
  const remove = useRemoveShare();

  function onAdd(event: FormEvent) {
    event.preventDefault();
    const trimmed = email.trim();
    if (!trimmed || add.isPending) return; // Spec: empty or blank is ignored.
    setAddError(null);
    add.mutate(
      { personalityId, email: trimmed },
      {
        onSuccess: ({ share, sharingType }) => {
          toast.success(messages.sharing.userAddedTitle, { description: messages.sharing.userAddedBody(share.email) });
          setEmail('');
          onLevelChanged(sharingType);
        },
        // The server's messages are the spec's: "User with this email not found", "This user is
        // already added", "You cannot share a personality with yourself".
        onError: (err) => {
          const message = err instanceof ApiError && err.status > 0 ? err.message : messages.sharing.shareFailed;
          setAddError(message);
          emailInput.current?.focus();
        },
      },
    );
  }

  const list = shares.data ?? [];
  return (
    <div className="grid gap-4">
      <form onSubmit={onAdd} className="grid gap-2" noValidate>
        <Label htmlFor={inputId}>Add a person by email</Label>
        <div className="flex gap-2">
          <Input
            ref={emailInput}
            id={inputId}
            type="email"
            autoComplete="off"
            placeholder="name@example.com"
            value={email}
            aria-invalid={addError ? true : undefined}
            aria-describedby={addError ? errorId : undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setAddError(null);
            }}
          />
          <Button type="submit" variant="secondary" disabled={add.isPending} aria-label="Add person">
            {add.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <UserPlusIcon aria-hidden />}
            <span className="hidden sm:inline">Add</span>
          </Button>
        </div>
        {addError && (
          <p id={errorId} role="alert" className="text-sm text-destructive [overflow-wrap:anywhere]">
            {addError}
          </p>
        )}
      </form>

      <section aria-labelledby={`${inputId}-list`} className="grid gap-2">
        <h3 id={`${inputId}-list`} className="text-sm font-medium">
          Shared with ({list.length})
        </h3>
        {shares.isPending ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading...
          </p>
        ) : shares.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(shares.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">Not shared with anyone yet.</p>
        ) : (
          <ul className="grid max-h-52 gap-1.5 overflow-y-auto" aria-label="People with access">
            {list.map((share) => {
              const removing = remove.isPending && remove.variables?.shareId === share.id;
              return (
                <li
                  key={share.id}
                  className="flex items-center justify-between gap-2 rounded-md border bg-muted/40 py-1 pr-1 pl-3 text-sm"
                >
                  <span className="min-w-0 truncate" title={share.email}>
                    {share.email || messages.sharing.unknownEmail}
                  </span>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 text-muted-foreground hover:text-destructive"
                    aria-label={`Remove ${share.email || messages.sharing.unknownEmail}`}
                    disabled={removing}
                    onClick={() =>
                      remove.mutate(
                        { personalityId, shareId: share.id },
                        {
                          onSuccess: () => toast.success(messages.sharing.userRemoved),
                          onError: () => toast.error(messages.sharing.removeFailed),
                        },
                      )
                    }
                  >
                    {removing ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <XIcon aria-hidden />}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
