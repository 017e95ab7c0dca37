// The conversation screen's frame (spec section 2): a back action and the title. The chat itself
// (tabs, text and voice chat, side panel) arrives in a later issue and goes below the header.
import { useEffect, useRef } from 'react';
import { ArrowLeftIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';

interface Props {
  personality: { id: string; name: string };
  onBack: () => void;
}

export function ConversationView({ personality, onBack }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);

  // A screen change: move focus to the new title so screen readers announce it.
  useEffect(() => {
    heading.current?.focus();
  }, [personality.id]);

  return (
    <section aria-labelledby="conversation-title" className="animate-fade-in grid gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" size="sm" onClick={onBack} aria-label="Back to personalities">
          <ArrowLeftIcon aria-hidden />
          Back
        </Button>
        <h2
          id="conversation-title"
          ref={heading}
          tabIndex={-1}
          className="min-w-0 font-display text-2xl font-semibold tracking-tight break-words outline-none sm:text-3xl"
        >
          Conversation with {personality.name}
        </h2>
      </div>
    </section>
  );
}
