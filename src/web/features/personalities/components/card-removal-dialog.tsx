// A card's confirmed removal from the library (the owner's delete, a recipient leaving a share):
// the confirmation, the toasts, and where focus goes when the card leaves the grid (the next card,
// else the previous one, else the library's title) or stays (back to its trigger).
// The confirmation is mounted when first asked for, not with each of a library's hundreds of cards.
import { useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { UseMutationResult } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { focusAfterRemoval, focusWhenLost } from '../../../lib/focus-management';
import { LIBRARY_TITLE_ID } from '../utils/focus-targets';
import { Button } from '../../../components/ui/button';
import { AlertDialog } from '../../../components/ui/alert-dialog';
import { ConfirmDialogContent } from '../../../components/ui/confirm-dialog';

interface Props {
  personalityId: string;
  removal: UseMutationResult<void, Error, string>;
  trigger: { label: string; title: string; icon: ReactNode; className?: string };
  confirm: { title: string; description: string; label: string };
  toasts: { done: string; failed: string };
}

export function CardRemovalDialog({ personalityId, removal, trigger, confirm, toasts }: Props) {
  const button = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing still animates and gives focus back.
  const [asked, setAsked] = useState(false);

  const onConfirm = () => {
    const stopWaiting = focusAfterRemoval(button.current?.closest('li'), () => document.getElementById(LIBRARY_TITLE_ID));
    removal.mutate(personalityId, {
      onSuccess: () => toast.success(toasts.done),
      onError: (err) => {
        stopWaiting();
        // The card stays: back to its trigger (disabled while removing) once usable again.
        focusWhenLost(() => button.current);
        toast.error(toasts.failed, { description: err instanceof ApiError ? err.message : undefined });
      },
    });
  };

  // ConfirmDialog's content with a trigger of its own: Radix's trigger would need the dialog mounted.
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        className={trigger.className}
        aria-label={trigger.label}
        title={trigger.title}
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={removal.isPending}
        onClick={() => {
          setAsked(true);
          setOpen(true);
        }}
      >
        {trigger.icon}
      </Button>
      {asked && (
        <AlertDialog open={open} onOpenChange={setOpen}>
          <ConfirmDialogContent
            title={confirm.title}
            description={confirm.description}
            confirmLabel={confirm.label}
            onConfirm={onConfirm}
            onCloseAutoFocus={(event) => {
              // Back to the trigger, as Radix does for its own (a removed card's focus moves on above).
              event.preventDefault();
              button.current?.focus();
            }}
          />
        </AlertDialog>
      )}
    </>
  );
}
