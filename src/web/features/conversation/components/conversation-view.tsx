// The conversation screen (spec section 2): a back action, the title, the conversation tabs and,
// on large screens, the side panel. "Self-paced Chat" (the default) and "Text Chat" show one
// conversation: a single panel stays mounted under the tabs and only its input changes, so
// what was said by voice is in the text log and the other way round.
import { useEffect, useRef, useState } from 'react';
import { ArrowLeftIcon, AudioLinesIcon, LoaderCircleIcon, MessageSquareTextIcon, MicIcon } from 'lucide-react';
import { useVoiceCapabilities } from '../../voice/api/voice-api';
import { Button } from '../../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { cn } from '../../../lib/cn';
import { personalityAvatarUrl } from '../../../lib/personality-avatar';
import { useViewer } from '../../auth/hooks/use-viewer';
import { useClearAnonymousTranscriptsOnSignOut } from '../hooks/use-clear-transcripts-on-sign-out';
import { AboutCard } from './about-card';
import type { SourceReference } from './document-references';
import { KnowledgeBaseCard } from './knowledge-base-card';
import { SystemOptimizationsCard } from './system-optimizations-card';
import type { ChatMode } from './chat-panel';
import { TextChat } from './text-chat';

interface Props {
  personality: { id: string; name: string; description: string | null; hasAvatar?: boolean; updatedAt?: string; agentId?: string | null };
  onBack: () => void;
  /** Opens the source view of a passage a reply drew on (the route wires the documents feature). */
  onOpenSource?: (reference: SourceReference) => void;
  /** The tab shown first (spec: Open Mic Chat with an agent id, Self-paced Chat otherwise). */
  initialMode?: ChatMode;
}

const openMicTab = { value: 'open-mic' as const, label: 'Open Mic Chat', Icon: AudioLinesIcon };
const tabs: { value: ChatMode; label: string; Icon: typeof MicIcon }[] = [
  { value: 'voice', label: 'Self-paced Chat', Icon: MicIcon },
  { value: 'text', label: 'Text Chat', Icon: MessageSquareTextIcon },
];

export function ConversationView({ personality, onBack, onOpenSource, initialMode }: Props) {
  const hasAgent = Boolean(personality.agentId?.trim());
  const capabilities = useVoiceCapabilities();
  // Open mic: with an ElevenLabs agent, or the product's own hands-free loop wherever speech can
  // be recognised (a configured service or the embedded recognizer).
  const openMic = hasAgent || capabilities.data?.stt.available === true;
  const shownTabs = openMic ? [openMicTab, ...tabs] : tabs;
  const heading = useRef<HTMLHeadingElement>(null);
  const viewer = useViewer();
  const viewerId = viewer.user?.id ?? null;
  useClearAnonymousTranscriptsOnSignOut(viewerId);
  // A PNG card's picture, shown beside replies and in "About {name}" (the initial letter otherwise).
  const avatarUrl = personality.hasAvatar && personality.updatedAt ? personalityAvatarUrl({ id: personality.id, hasAvatar: true, updatedAt: personality.updatedAt }) : null;

  // A screen change: move focus to the new title so screen readers announce it.
  useEffect(() => {
    heading.current?.focus();
  }, [personality.id]);

  const [mode, setMode] = useState<ChatMode>(initialMode ?? (hasAgent ? 'open-mic' : 'voice'));
  const conversation = viewer.isLoading ? (
    <p role="status" className="flex h-64 items-center justify-center gap-2 text-sm text-muted-foreground">
      <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
      Loading...
    </p>
  ) : (
    // Keyed by viewer: signing in or out mid-chat starts over with that person's conversations.
    // Not before the viewer is known: an anonymous chat must not start for a signed-in person.
    <TextChat key={viewerId ?? 'anonymous'} personality={{ ...personality, avatarUrl }} viewerId={viewerId} onOpenSource={onOpenSource} mode={mode} />
  );

  return (
    <section aria-labelledby="conversation-title" className="animate-fade-in grid gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" size="sm" onClick={onBack}>
          <ArrowLeftIcon aria-hidden />
          Back
        </Button>
        {/* The screen's one h1 (the library's title is not shown meanwhile). */}
        <h1
          id="conversation-title"
          ref={heading}
          tabIndex={-1}
          className="min-w-0 font-display text-2xl font-semibold tracking-tight [overflow-wrap:anywhere] outline-none sm:text-3xl"
        >
          Conversation with <bdi>{personality.name}</bdi>
        </h1>
      </div>

      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Tabs value={mode} onValueChange={(v) => setMode(v as ChatMode)} className="min-w-0">
          {/* On a phone the tabs share the width in equal columns and their names may wrap (as the
              admin tabs do), so none is cut off; from tablets up they sit in one row. */}
          <TabsList
            aria-label="Conversation mode"
            className={cn('grid h-auto w-full sm:inline-flex sm:h-10 sm:w-fit', shownTabs.length === 3 ? 'grid-cols-3' : 'grid-cols-2')}
          >
            {shownTabs.map(({ value, label, Icon }) => (
              <TabsTrigger
                key={value}
                value={value}
                className="h-auto min-h-9 min-w-0 gap-1 px-1.5 py-1 text-center text-xs leading-tight whitespace-normal sm:h-full sm:gap-1.5 sm:px-3 sm:text-sm sm:whitespace-nowrap"
              >
                <Icon aria-hidden />
                {label}
              </TabsTrigger>
            ))}
          </TabsList>
          {/* One content element whose value follows the tab: its children (the conversation) stay mounted. */}
          <TabsContent key="conversation" value={mode} className="rounded-xl border bg-card p-3 shadow-sm sm:p-5">
            {conversation}
          </TabsContent>
        </Tabs>

        {/* Large screens only (spec): on a phone the chat gets the whole width. */}
        <aside aria-label="Conversation details" className="hidden gap-4 lg:grid">
          {viewer.isAdmin && <SystemOptimizationsCard />}
          <AboutCard name={personality.name} description={personality.description} avatarUrl={avatarUrl} />
          <KnowledgeBaseCard personalityId={personality.id} viewerId={viewerId} />
        </aside>
      </div>
    </section>
  );
}
