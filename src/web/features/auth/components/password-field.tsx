import { useId, useState, type ComponentProps } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';

interface PasswordFieldProps extends Omit<ComponentProps<'input'>, 'type' | 'id' | 'aria-describedby' | 'aria-invalid'> {
  label?: string;
  /** Shown under the field and tied to it with aria-describedby. */
  hint?: string;
  /** The id of an error about this field: the field is marked invalid and described by it first. */
  errorId?: string | null;
}

/** A password input with a show/hide toggle (the toggle never submits the form). */
export function PasswordField({ label = 'Password', hint, errorId, ...inputProps }: PasswordFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const describedBy = [errorId, hint ? hintId : null].filter(Boolean).join(' ');
  const [visible, setVisible] = useState(false);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Input
          id={id}
          type={visible ? 'text' : 'password'}
          className="pr-11"
          {...inputProps}
          aria-describedby={describedBy || undefined}
          aria-invalid={errorId ? true : undefined}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          // Named by its title, not aria-label: "find the field labelled Password" (getByLabel, and
          // some screen readers' form lists) reads aria-label too, and would find this button as well.
          title={visible ? 'Hide password' : 'Show password'}
          aria-controls={id}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground transition-colors outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
        >
          {visible ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
        </button>
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
