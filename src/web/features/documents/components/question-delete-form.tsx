// "Delete questions asked before {date}": everything strictly earlier than the start of the chosen
// day (in the owner's own time zone) goes; questions asked on that day stay (spec section 9).
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LoaderCircleIcon, Trash2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useDeleteQuestions } from '../api/delete-questions';

/** "2026-03-05" -> local midnight that day; null for anything else. */
export function startOfLocalDay(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function QuestionDeleteForm({ personalityId }: { personalityId: string }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteQuestions();
  const inputId = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const before = startOfLocalDay(value);
    if (!before) {
      setError(messages.questions.dateRequired);
      return;
    }
    setError(null);
    remove.mutate(
      { personalityId, before },
      {
        onSuccess: (deleted) =>
          toast.success(deleted === 1 ? '1 question deleted' : `${deleted} questions deleted`),
        onError: () => toast.error(messages.questions.deleteFailed),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-2 rounded-lg border bg-muted/30 p-3">
      <Label htmlFor={inputId}>Delete questions asked before</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={inputId}
          type="date"
          className="w-auto min-w-40 flex-1 sm:flex-none"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        <Button type="submit" variant="destructive" disabled={remove.isPending}>
          {remove.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <Trash2Icon aria-hidden />}
          Delete earlier questions
        </Button>
      </div>
      {error && (
        <p id={`${inputId}-error`} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
    </form>
  );
}
