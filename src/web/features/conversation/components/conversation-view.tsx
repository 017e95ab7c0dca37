// The conversation screen (spec section 2): a back action, the title, the conversation tabs and,
// on large screens, the side panel. Tabs are a list so the voice tabs (Open Mic Chat, Self-paced
// Chat) can join "Text Chat" later, with their own rule for which one opens first.
import { useEffect, useRef, type ReactNode } from 'react';
import { ArrowLeftIcon, LoaderCircleIcon, MessageSquareTextIcon } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useViewer } from '../../auth/hooks/use-viewer';
import { AboutCard } from './about-card';
import type { SourceReference } from './document-references';
import { KnowledgeBaseCard } from './knowledge-base-card';
import { SystemOptimizationsCard } from './system-optimizations-card';
import { TextChat } from './text-chat';

interface Props {
  personality: { id: string; name: string; description: string | null };
  onBack: () => void;
  /** Opens the source view of a passage a reply drew on (the route wires the documents feature). */
  onOpenSource?: (reference: SourceReference) => void;
}

interface ConversationTab {
  value: string;
  label: string;
  icon: ReactNode;
  content: ReactNode;
}

export function ConversationView({ personality, onBack, onOpenSource }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  const viewer = useViewer();
  const viewerId = viewer.user?.id ?? null;

  // A screen change: move focus to the new title so screen readers announce it.
  useEffect(() => {
    heading.current?.focus();
  }, [personality.id]);

  const tabs: ConversationTab[] = [
    {
      value: 'text',
      label: 'Text Chat',
      icon: <MessageSquareTextIcon aria-hidden />,
      // Keyed by viewer: signing in or out mid-chat starts over with that person's conversations.
      // Not before the viewer is known: an anonymous chat must not start for a signed-in person.
      content: viewer.isLoading ? (
        <p role="status" className="flex h-64 items-center justify-center gap-2 text-sm text-muted-foreground">
          <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
          Loading...
        </p>
      ) : (
        <TextChat key={viewerId ?? 'anonymous'} personality={personality} viewerId={viewerId} onOpenSource={onOpenSource} />
      ),
    },
  ];

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

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Tabs defaultValue={tabs[0]!.value} className="min-w-0">
          <TabsList aria-label="Conversation mode">
            {tabs.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.icon}
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {tabs.map((t) => (
            <TabsContent key={t.value} value={t.value} className="rounded-xl border bg-card p-3 shadow-sm sm:p-5">
              {t.content}
            </TabsContent>
          ))}
        </Tabs>

        {/* Large screens only (spec): on a phone the chat gets the whole width. */}
        <aside aria-label="Conversation details" className="hidden gap-4 lg:grid">
          {viewer.isAdmin && <SystemOptimizationsCard />}
          <AboutCard name={personality.name} description={personality.description} />
          <KnowledgeBaseCard personalityId={personality.id} viewerId={viewerId} />
        </aside>
      </div>
    </section>
  );
}
