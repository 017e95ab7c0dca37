// The main screen's body (spec section 2): intro, "Add Personality" or "Sign In to Create", the
// create form and the grid; or, when ?chat={id} is set, that personality's conversation.
// Other features plug in through props, so this feature imports none of them: the route passes
// the conversation view and the documents modal opener.
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ArrowLeftIcon, FileUpIcon, LogInIcon, PlusIcon } from 'lucide-react';
import type { Personality } from '../../../../shared/schemas/personality';
import { Button } from '../../../components/ui/button';
import { LoadingStatus } from '../../../components/loading-status';
import { lazyNamed } from '../../../lib/lazy-named';
import { onPersonalityMissing } from '../../../lib/personality-missing';
import { useViewer } from '../../auth/hooks/use-viewer';
import { useListPersonalities } from '../api/list-personalities';
import { personalityKeys } from '../api/personality-keys';
import { useChatParam } from '../hooks/use-chat-param';
import { LIBRARY_TITLE_ID, startChatButtonId } from '../utils/focus-targets';
import { initialLibraryView, PAGE_SIZE, PersonalityGrid, type LibraryView } from './personality-grid';
import type { ShareActionOptions } from './personality-card';

interface Props {
  /** Renders the conversation screen for the chosen personality; `onBack` returns to the grid. */
  renderConversation: (personality: Personality, onBack: () => void) => ReactNode;
  /** The owner's "Docs" button; the documents modal is wired here by the route. */
  onOpenDocuments?: (personality: Personality) => void;
  /**
   * The owner's Share action on a card; `onChanged` refreshes the library after a change. Called
   * when the card's Share button is first pressed: `options.defaultOpen` asks for the dialog open.
   */
  renderShareAction?: (personality: Personality, onChanged: () => void, options: ShareActionOptions) => ReactNode;
}

const noop = () => {};

// The import dialog (card parsing preview, file input) and the create form (its voice fields
// bring the select and its positioning library) are loaded only when opened.
const ImportCardDialog = lazy(() => import('./import-card-dialog'));
const PersonalityCreateForm = lazyNamed(() => import('./personality-create-form'), 'PersonalityCreateForm');

export function PersonalitiesDashboard({ renderConversation, onOpenDocuments = noop, renderShareAction }: Props) {
  const viewer = useViewer();
  const signedIn = viewer.user !== null;
  const list = useListPersonalities();
  const { chatId, openChat, closeChat } = useChatParam();
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const queryClient = useQueryClient();
  const refreshLibrary = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: personalityKeys.lists() }),
    [queryClient],
  );
  // A personality this tab shows answered 404 (deleted, or unshared, elsewhere): read the library
  // again, so its card goes and its conversation gives way to "This personality is not available."
  useEffect(() => onPersonalityMissing(refreshLibrary), [refreshLibrary]);
  const addButton = useRef<HTMLButtonElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  // The search and how many cards are shown outlive a visit to a conversation.
  const [libraryView, setLibraryView] = useState<LibraryView>(initialLibraryView);

  // The cards are memoized: they get handlers that stay the same from render to render.
  const handlers = useRef({ openChat, onOpenDocuments });
  useLayoutEffect(() => {
    handlers.current = { openChat, onOpenDocuments };
  });
  const onStartChat = useCallback((p: Personality) => handlers.current.openChat(p.id), []);
  const openDocuments = useCallback((p: Personality) => handlers.current.onOpenDocuments(p), []);
  const shareAction = useCallback(
    (p: Personality, options: ShareActionOptions) => renderShareAction?.(p, refreshLibrary, options),
    [renderShareAction, refreshLibrary],
  );

  // Leaving a conversation (Back, or the browser's back button): focus goes to that
  // personality's Start Chat button, where the person left the library (its title if it is gone).
  const leftChat = useRef<string | null>(null);
  useEffect(() => {
    if (chatId) {
      leftChat.current = chatId;
      return;
    }
    const id = leftChat.current;
    if (!id || !list.data) return;
    const startChat = document.getElementById(startChatButtonId(id));
    // Opened from a link, or no longer in the search's results: the library shows it first.
    const index = list.data.findIndex((p) => p.id === id);
    const needed = Math.ceil((index + 1) / PAGE_SIZE) * PAGE_SIZE;
    if (!startChat && index >= 0 && (libraryView.query !== '' || libraryView.limit < needed)) {
      setLibraryView({ query: '', limit: Math.max(libraryView.limit, needed) });
      return;
    }
    leftChat.current = null;
    // Back in the library: what changed meanwhile (a rename, a delete in another tab) shows.
    refreshLibrary();
    (startChat ?? title.current)?.focus();
  }, [chatId, list.data, refreshLibrary, libraryView]);

  // "Add Personality" is disabled while its form is open: when the form closes (Cancel, or the
  // personality was created), focus goes back to it.
  const wasCreating = useRef(false);
  useEffect(() => {
    if (wasCreating.current && !creating) addButton.current?.focus();
    wasCreating.current = creating;
  }, [creating]);

  const grid = (
    <PersonalityGrid
      personalities={list.data}
      isPending={list.isPending}
      error={list.error}
      isRetrying={list.isFetching}
      onRetry={() => void list.refetch()}
      signedIn={signedIn}
      onStartChat={onStartChat}
      onOpenDocuments={openDocuments}
      renderShareAction={renderShareAction && shareAction}
      view={libraryView}
      onViewChange={setLibraryView}
    />
  );

  if (chatId) {
    const personality = list.data?.find((p) => p.id === chatId);
    // The library failed to load: whether this personality is available is not known yet.
    const loadFailed = Boolean(list.error) && !list.data;
    return (
      <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
        {personality ? (
          renderConversation?.(personality, closeChat)
        ) : list.isPending && !loadFailed ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : (
          <div className="grid justify-items-start gap-4">
            <Button variant="outline" size="sm" onClick={closeChat}>
              <ArrowLeftIcon aria-hidden />
              Back
            </Button>
            {loadFailed ? (
              // The grid's own load error, with its Retry.
              <div className="w-full">{grid}</div>
            ) : (
              <div role="alert" className="grid gap-1 text-muted-foreground">
                <p>This personality is not available.</p>
                {/* A private or shared personality is listed only for those it is shared with. */}
                {!signedIn && !viewer.isLoading && (
                  <p>
                    If it was shared with you,{' '}
                    <Link to="/auth" className="font-medium text-foreground underline underline-offset-2">
                      sign in to see it
                    </Link>
                    .
                  </p>
                )}
              </div>
            )}
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-6 sm:px-6 sm:py-10">
      <section aria-labelledby="personalities-title" className="flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
        <div className="grid max-w-2xl gap-2">
          <h1
            id={LIBRARY_TITLE_ID}
            ref={title}
            tabIndex={-1}
            className="font-display text-3xl font-semibold tracking-tight outline-none sm:text-4xl"
          >
            <span className="mystical-text">Kindred spirits</span>
          </h1>
          <p className="text-base leading-relaxed text-muted-foreground">
            Create AI personalities modelled on famous figures or people you know, shape how they behave with
            instructions and documents, give them a voice, and talk with them by text or voice.
          </p>
        </div>
        {viewer.isLoading ? null : signedIn ? (
          <div className="flex flex-wrap gap-2 self-start md:self-auto">
            <Button ref={addButton} variant="mystical" size="lg" onClick={() => setCreating(true)} aria-expanded={creating} disabled={creating}>
              <PlusIcon aria-hidden />
              Add Personality
            </Button>
            <Button variant="outline" size="lg" onClick={() => setImporting(true)} aria-haspopup="dialog">
              <FileUpIcon aria-hidden />
              Import
            </Button>
          </div>
        ) : (
          <Button asChild variant="mystical" size="lg" className="self-start md:self-auto">
            <Link to="/auth">
              <LogInIcon aria-hidden />
              Sign In to Create
            </Link>
          </Button>
        )}
      </section>

      {creating && signedIn && (
        <Suspense fallback={<LoadingStatus className="justify-center py-12" />}>
          <PersonalityCreateForm onDone={() => setCreating(false)} />
        </Suspense>
      )}
      {importing && signedIn && (
        <Suspense fallback={null}>
          <ImportCardDialog open={importing} onOpenChange={setImporting} />
        </Suspense>
      )}

      {grid}
    </div>
  );
}
