// One personality in the grid: name, badges, description with safe links, and the actions the
// viewer may take. Owner actions (edit, delete) appear on hover, on keyboard focus, and always
// on touch screens, which cannot hover.
// A library shows hundreds of cards: what only some people open (the Share, Delete and Export
// dialogs, the edit form) is mounted when first opened, not with every card.
import { lazy, memo, Suspense, useRef, useState, type ReactNode } from 'react';
import { EyeIcon, FileDownIcon, FileTextIcon, MessageCircleIcon, PencilIcon, Share2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { SafeLinks } from '../../../lib/safe-links';
import { cn } from '../../../lib/cn';
import { lazyNamed } from '../../../lib/lazy-named';
import { Button } from '../../../components/ui/button';
import { LoadingStatus } from '../../../components/loading-status';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { startChatButtonId } from '../utils/focus-targets';
import { isCreatedByAnother } from '../utils/personality-labels';
import { PersonalityBadges } from './personality-badges';
import { DeletePersonalityDialog } from './delete-personality-dialog';
import { LeaveShareDialog } from './leave-share-dialog';
import { cardUrls } from '../api/import-card';

export interface ShareActionOptions {
  /** The dialog opens as it mounts: the card mounts it when its Share button is first pressed. */
  defaultOpen: boolean;
}

export interface PersonalityCardProps {
  personality: Personality;
  signedIn: boolean;
  onStartChat: (personality: Personality) => void;
  onOpenDocuments: (personality: Personality) => void;
  /**
   * The owner's Share button and dialog, supplied by the route (features do not import each
   * other). Called only once the card's own Share button was pressed, with defaultOpen: true.
   */
  renderShareAction?: (personality: Personality, options: ShareActionOptions) => ReactNode;
}

// The export dialog and the edit form (its voice fields bring the select and its positioning
// library) are fetched the first time an owner opens them, not with the first page.
const ExportCardDialog = lazy(() => import('./export-card-dialog'));
const PersonalityEditForm = lazyNamed(() => import('./personality-edit-form'), 'PersonalityEditForm');

const ownerActionClass =
  'size-8 text-muted-foreground hover:text-foreground opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100 focus-visible:opacity-100 [@media(hover:none)]:opacity-100';

export const PersonalityCard = memo(function PersonalityCard({
  personality: p,
  signedIn,
  onStartChat,
  onOpenDocuments,
  renderShareAction,
}: PersonalityCardProps) {
  const [editing, setEditing] = useState(false);
  const [exporting, setExporting] = useState(false);
  // The Share dialog (the viewer's role, the sharing level, the people) mounts on first use.
  const [sharing, setSharing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const titleId = `personality-${p.id}-name`;

  // Looks and reads as the Share dialog's own button, which replaces it when pressed.
  const shareButton = (opening: boolean) => (
    <Button
      variant="outline"
      size="icon"
      aria-label={`Share ${p.name}`}
      aria-haspopup="dialog"
      aria-expanded={false}
      aria-busy={opening || undefined}
      title="Share"
      onClick={() => setSharing(true)}
    >
      <Share2Icon aria-hidden />
    </Button>
  );

  const stopEditing = () => {
    setEditing(false);
    // Put focus back where the keyboard user left it.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      className={cn(
        'group relative gap-4 overflow-hidden transition-shadow hover:shadow-lg',
        'before:absolute before:inset-x-0 before:top-0 before:h-1 before:bg-gradient-personality before:opacity-70',
        editing && 'ring-2 ring-ring/40',
      )}
    >
      {editing ? (
        <>
          <CardHeader>
            <CardTitle id={titleId} className="min-w-0 text-lg [overflow-wrap:anywhere]">
              Editing {p.name}
            </CardTitle>
          </CardHeader>
          <Suspense fallback={<LoadingStatus className="px-6 py-8" />}>
            <PersonalityEditForm personality={p} onDone={stopEditing} />
          </Suspense>
        </>
      ) : (
        <>
          <CardHeader className="gap-3">
            <div className="flex items-start justify-between gap-2">
              <div className="flex min-w-0 items-center gap-3">
                {p.hasAvatar && (
                  <img
                    src={cardUrls.avatar(p.id, p.updatedAt)}
                    alt=""
                    width={48}
                    height={48}
                    loading="lazy"
                    data-testid="personality-avatar"
                    className="size-12 shrink-0 rounded-full border object-cover"
                  />
                )}
                <CardTitle id={titleId} dir="auto" className="min-w-0 [overflow-wrap:anywhere]">
                  {p.name}
                </CardTitle>
              </div>
              {p.isOwner && (
                <div className="-mt-1 -mr-2 flex shrink-0 gap-0.5">
                  <Button
                    ref={editButton}
                    variant="ghost"
                    size="icon"
                    className={ownerActionClass}
                    aria-label={`Edit ${p.name}`}
                    title="Edit"
                    onClick={() => setEditing(true)}
                  >
                    <PencilIcon aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className={ownerActionClass}
                    aria-label={`Export ${p.name} as a character card`}
                    aria-haspopup="dialog"
                    title="Export card"
                    onClick={() => setExporting(true)}
                  >
                    <FileDownIcon aria-hidden />
                  </Button>
                  {exporting && (
                    <Suspense fallback={null}>
                      <ExportCardDialog personality={p} open={exporting} onOpenChange={setExporting} />
                    </Suspense>
                  )}
                  <DeletePersonalityDialog personality={p} triggerClassName={ownerActionClass} />
                </div>
              )}
              {!p.isOwner && signedIn && p.sharingType === 'shared' && (
                <div className="-mt-1 -mr-2 flex shrink-0">
                  <LeaveShareDialog personality={p} triggerClassName={ownerActionClass} />
                </div>
              )}
            </div>
            <PersonalityBadges personality={p} />
          </CardHeader>
          <CardContent className="flex flex-1 flex-col gap-3">
            {p.description ? (
              <p dir="auto" className="line-clamp-5 text-sm leading-relaxed [overflow-wrap:anywhere] whitespace-pre-line text-muted-foreground">
                <SafeLinks text={p.description} />
              </p>
            ) : (
              <p className="text-sm text-muted-foreground/80 italic">No description</p>
            )}
            {isCreatedByAnother(p) && (
              <p className="mt-auto text-xs text-muted-foreground">{messages.personality.createdByOther}</p>
            )}
          </CardContent>
          <CardFooter className="flex-wrap">
            <Button
              id={startChatButtonId(p.id)}
              variant="personality"
              className="flex-1"
              onClick={() => onStartChat(p)}
              aria-label={`Start Chat with ${p.name}`}
            >
              <MessageCircleIcon aria-hidden />
              Start Chat
            </Button>
            {p.isOwner ? (
              <>
                <Button variant="outline" onClick={() => onOpenDocuments(p)} aria-label={`Docs for ${p.name}`}>
                  <FileTextIcon aria-hidden />
                  Docs
                </Button>
                {renderShareAction &&
                  (sharing ? (
                    // The dialog's code may still be loading: the button stays in its place meanwhile.
                    <Suspense fallback={shareButton(true)}>{renderShareAction(p, { defaultOpen: true })}</Suspense>
                  ) : (
                    shareButton(false)
                  ))}
              </>
            ) : (
              signedIn && (
                <span className="inline-flex h-10 items-center gap-1.5 rounded-md border border-dashed px-3 text-sm text-muted-foreground">
                  <EyeIcon className="size-4" aria-hidden />
                  View Only
                </span>
              )
            )}
          </CardFooter>
        </>
      )}
    </Card>
  );
});
