import { Suspense, useCallback, useRef, useState, type ReactElement } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { lazyNamed } from '../../../lib/lazy-named';

// The forms load when the dialog first opens: the header's button is on every page, the forms
// (and Delete Account) are opened rarely, and the first page's JavaScript has a budget.
// Pointing at or focusing the button starts the download, so the forms are usually there on open.
const loadForms = () => import('./change-password-forms');
const ChangePasswordForms = lazyNamed(loadForms, 'ChangePasswordForms');
const preloadForms = () => void loadForms().catch(() => {});

/**
 * Change Password, opened by `trigger`. Saving signs the person out everywhere else, and the
 * dialog says so before and after. Below it, apart, Delete Account (delete-account-section.tsx).
 * It cannot be closed while a new password is being saved.
 */
export function ChangePasswordDialog({ trigger }: { trigger: ReactElement }) {
  const [open, setOpen] = useState(false);
  const busy = useRef(false);
  const onBusyChange = useCallback((now: boolean) => void (busy.current = now), []);
  const onDone = useCallback(() => setOpen(false), []);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy.current) return;
        setOpen(next);
      }}
    >
      <DialogTrigger asChild onPointerEnter={preloadForms} onFocus={preloadForms}>
        {trigger}
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Change Password</DialogTitle>
          <DialogDescription>Saving a new password signs you out on your other devices.</DialogDescription>
        </DialogHeader>
        <Suspense fallback={<p className="text-sm text-muted-foreground">Loading...</p>}>
          <ChangePasswordForms onBusyChange={onBusyChange} onDone={onDone} />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
