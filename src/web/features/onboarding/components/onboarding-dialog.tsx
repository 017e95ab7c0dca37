import { useEffect, useRef, useState } from 'react';
import { ArrowLeft, ArrowRight, Rocket } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Progress } from '../../../components/ui/progress';
import { useOnboarding } from '../hooks/use-onboarding';
import { onboardingSteps } from './onboarding-steps';

/** Mount on the main screen with the signed-in user's id (null when signed out or still loading). */
export function OnboardingDialog({ userId }: { userId: string | null }) {
  const { open, close, complete } = useOnboarding(userId);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      {/* Keyed by user so a new person always starts at step 1. */}
      {open && <OnboardingContent key={userId} onFinish={complete} />}
    </Dialog>
  );
}

function OnboardingContent({ onFinish }: { onFinish: () => void }) {
  const [index, setIndex] = useState(0);
  const total = onboardingSteps.length;
  const step = onboardingSteps[index]!;
  const isLast = index === total - 1;
  const Icon = step.icon;
  const title = useRef<HTMLHeadingElement>(null);
  // Previous on step 2 disables itself: focus would drop out of the dialog, so it goes to the
  // step's title instead. Otherwise the button pressed keeps it (Next becomes Get Started in place).
  const [focusTitle, setFocusTitle] = useState(false);
  useEffect(() => {
    if (!focusTitle) return;
    title.current?.focus();
    setFocusTitle(false);
  }, [focusTitle]);

  const previous = () => {
    if (index === 1) setFocusTitle(true);
    setIndex((i) => Math.max(0, i - 1));
  };

  return (
    <DialogContent className="sm:max-w-xl">
      <DialogHeader>
        <div className="flex items-center justify-between gap-3 pr-2 text-xs font-medium text-muted-foreground">
          <span>Getting started</span>
          <span aria-live="polite">
            {index + 1} of {total}
          </span>
        </div>
        <Progress value={((index + 1) / total) * 100} aria-label="Onboarding progress" className="h-1.5" />
        <div className="mt-3 flex items-center gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-gradient-mystical text-mystical-foreground shadow-glow">
            <Icon className="size-5" aria-hidden="true" />
          </span>
          {/* Live too: each new step is announced with its title, not only its number. */}
          <DialogTitle ref={title} tabIndex={-1} aria-live="polite" className="outline-none">
            {step.title}
          </DialogTitle>
        </div>
        <DialogDescription className="sr-only">A short tour of Kindred</DialogDescription>
      </DialogHeader>

      <div className="min-h-44 sm:min-h-68">{step.body}</div>

      <DialogFooter className="flex-row justify-between gap-2 sm:justify-between">
        <Button variant="outline" onClick={previous} disabled={index === 0}>
          <ArrowLeft aria-hidden="true" />
          Previous
        </Button>
        {/* One button, so focus stays on it when Next becomes Get Started on the last step. */}
        <Button variant="mystical" onClick={isLast ? onFinish : () => setIndex((i) => i + 1)}>
          {isLast ? (
            <>
              <Rocket aria-hidden="true" />
              Get Started
            </>
          ) : (
            <>
              Next
              <ArrowRight aria-hidden="true" />
            </>
          )}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
