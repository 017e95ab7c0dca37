// A destructive action behind a confirmation (delete a personality, a document, a conversation;
// revert to private): the trigger the caller gives, a title, the text that says what will be lost,
// Cancel and the confirm button. The action runs only on confirm; Cancel and Escape change nothing.
import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './alert-dialog';

interface ConfirmDialogProps {
  /** The button that opens the dialog (rendered as the trigger, asChild). */
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
}

export function ConfirmDialog({ trigger, ...content }: ConfirmDialogProps) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <ConfirmDialogContent {...content} />
    </AlertDialog>
  );
}

type ConfirmDialogContentProps = Omit<ConfirmDialogProps, 'trigger'> & {
  /** Where focus goes when it closes (Radix gives it back to its own trigger; a caller without one says). */
  onCloseAutoFocus?: (event: Event) => void;
};

/** The dialog itself, for a caller that opens it without a Radix trigger (card-removal-dialog.tsx). */
export function ConfirmDialogContent({ title, description, confirmLabel, onConfirm, onCloseAutoFocus }: ConfirmDialogContentProps) {
  return (
    <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
      <AlertDialogHeader>
        <AlertDialogTitle className="[overflow-wrap:anywhere]">{title}</AlertDialogTitle>
        <AlertDialogDescription className="[overflow-wrap:anywhere]">{description}</AlertDialogDescription>
      </AlertDialogHeader>
      <AlertDialogFooter>
        <AlertDialogCancel>Cancel</AlertDialogCancel>
        <AlertDialogAction variant="destructive" onClick={onConfirm}>
          {confirmLabel}
        </AlertDialogAction>
      </AlertDialogFooter>
    </AlertDialogContent>
  );
}
