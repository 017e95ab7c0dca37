import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { Send } from 'lucide-react';
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
import { Label } from '../../../components/ui/label';
import { RadioGroup, RadioGroupItem } from '../../../components/ui/radio-group';
import { Textarea } from '../../../components/ui/textarea';
import { FEEDBACK_CATEGORIES, limits, type FeedbackCategory } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { isBlank } from '../../../../shared/text/visible';
import { useSubmitFeedback } from '../api/submit-feedback';
import { RatingInput } from './rating-input';

const EMPTY = { category: 'general' as FeedbackCategory, rating: null as number | null, feedback: '' };

/** The Feedback dialog, opened by `trigger`. Works for signed-out visitors too. */
export function FeedbackDialog({ trigger }: { trigger: ReactElement }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = useSubmitFeedback();
  const ids = { category: useId(), rating: useId(), text: useId(), problem: useId() };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (isBlank(draft.feedback)) {
      setProblem(messages.feedback.empty);
      return;
    }
    setProblem(null);
    submit.mutate(draft, {
      onSuccess: () => {
        toast.success(messages.feedback.successTitle, { description: messages.feedback.successBody });
        setDraft(EMPTY);
        setOpen(false);
      },
      onError: () => toast.error(messages.feedback.failed),
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Never closes mid-send, so the answer still lands in this form.
        if (submit.isPending) return;
        setOpen(next);
        if (!next) setProblem(null);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Share your feedback</DialogTitle>
          <DialogDescription>Tell us what works, what does not, and what you would love to see next.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} className="grid gap-5" noValidate>
          <fieldset className="grid gap-2.5">
            <legend id={ids.category} className="mb-2.5 text-sm font-medium">
              Category
            </legend>
            <RadioGroup
              aria-labelledby={ids.category}
              value={draft.category}
              onValueChange={(value) => setDraft((d) => ({ ...d, category: value as FeedbackCategory }))}
              className="grid-cols-1 gap-2 min-[400px]:grid-cols-2"
            >
              {FEEDBACK_CATEGORIES.map((c) => (
                <Label
                  key={c.value}
                  className="cursor-pointer rounded-lg border bg-card px-3 py-2.5 font-normal transition-colors hover:bg-accent/60 has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-accent/70"
                >
                  <RadioGroupItem value={c.value} />
                  {c.label}
                </Label>
              ))}
            </RadioGroup>
          </fieldset>

          <div className="grid gap-1.5">
            <span id={ids.rating} className="text-sm font-medium">
              Rating <span className="font-normal text-muted-foreground">(optional)</span>
            </span>
            <RatingInput
              labelledBy={ids.rating}
              value={draft.rating}
              onChange={(rating) => setDraft((d) => ({ ...d, rating }))}
            />
          </div>

          <div className="grid gap-2">
            <Label htmlFor={ids.text}>Your message</Label>
            <Textarea
              id={ids.text}
              rows={4}
              maxLength={limits.feedbackMax}
              placeholder="What's on your mind?"
              className="field-sizing-fixed min-h-0 resize-y"
              value={draft.feedback}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? ids.problem : undefined}
              onChange={(e) => {
                setDraft((d) => ({ ...d, feedback: e.target.value }));
                if (problem) setProblem(null);
              }}
            />
            {problem && (
              <p id={ids.problem} role="alert" className="text-sm font-medium text-destructive">
                {problem}
              </p>
            )}
          </div>

          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={submit.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="mystical" disabled={!draft.feedback || submit.isPending}>
              <Send aria-hidden="true" />
              {submit.isPending ? 'Submitting...' : 'Submit'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
