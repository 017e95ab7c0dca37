// The library's body: loading skeletons, a load error with retry, the empty states, or the grid
// (one column on phones, two on tablets, three on desktops). A library of more than a few rows
// gets a search box: with hundreds of public personalities listed first, a person's own ones are
// otherwise hundreds of cards down.
// A large library is rendered a page at a time: the first PAGE_SIZE cards at once, more as the
// person scrolls near the end or presses "Show more personalities". The search always covers every
// personality, shown or not yet (a popular instance lists hundreds of public ones to every visitor).
import { memo, startTransition, useCallback, useEffect, useId, useMemo, useRef, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { RotateCwIcon, SearchIcon, SparklesIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { errorMessage } from '../../../lib/api-client';
import { firstFocusable } from '../../../lib/focus-management';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { searchText, searchWords, textMatches } from '../utils/library-search';
import { PersonalityCard, type PersonalityCardProps, type ShareActionOptions } from './personality-card';

/**
 * What the person has done to the grid: the search typed and how many cards are shown. The
 * dashboard keeps it, so leaving for a conversation and coming back finds the library as it was.
 */
export interface LibraryView {
  query: string;
  /** How many of the matching personalities are shown (a multiple of PAGE_SIZE). */
  limit: number;
}

interface Props {
  personalities: Personality[] | undefined;
  isPending: boolean;
  error: unknown;
  isRetrying: boolean;
  onRetry: () => void;
  signedIn: boolean;
  onStartChat: (personality: Personality) => void;
  onOpenDocuments: (personality: Personality) => void;
  renderShareAction?: (personality: Personality, options: ShareActionOptions) => ReactNode;
  view: LibraryView;
  onViewChange: Dispatch<SetStateAction<LibraryView>>;
}

const gridClass = 'grid grid-cols-1 gap-5 sm:grid-cols-2 xl:grid-cols-3';
/** More personalities than three rows of the widest grid: the search box is shown. */
export const SEARCH_FROM = 10;
/**
 * Cards rendered at first and added at a time: whole rows of one, two or three columns. 60, not
 * fewer: a person's own private personalities come after every public one (spec: public first), and
 * a page of 24 put them out of sight below a modest catalogue. Measured at 1,000 (admin): cards painted
 * 3.0 s after the load began with 60, 2.5 s with 24, 16 s with all; the list's arrival to painted
 * cards 0.5-0.8 s.
 */
export const PAGE_SIZE = 60;
export const initialLibraryView: LibraryView = { query: '', limit: PAGE_SIZE };
/** The next page is added when its button comes within this distance of the screen. */
const AUTO_MORE_MARGIN = '0px 0px 800px 0px';

export function PersonalityGrid(props: Props) {
  const { personalities, isPending, error, signedIn } = props;
  const searchId = useId();

  if (error && !personalities) {
    return (
      <Alert variant="destructive">
        <AlertTitle>{messages.personality.loadFailed}</AlertTitle>
        <AlertDescription>
          <p>{errorMessage(error)}</p>
          <Button variant="outline" size="sm" className="mt-2" onClick={props.onRetry} disabled={props.isRetrying}>
            <RotateCwIcon className={props.isRetrying ? 'animate-spin' : undefined} aria-hidden />
            Retry
          </Button>
        </AlertDescription>
      </Alert>
    );
  }

  if (isPending || !personalities) {
    return (
      <div role="status" aria-label="Loading personalities" className={gridClass}>
        {[0, 1, 2].map((i) => (
          <div key={i} className="grid gap-4 rounded-xl border bg-card p-6">
            <Skeleton className="h-6 w-2/3" />
            <div className="flex gap-2">
              <Skeleton className="h-5 w-16 rounded-full" />
              <Skeleton className="h-5 w-24 rounded-full" />
            </div>
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
            <Skeleton className="mt-2 h-10 w-full" />
          </div>
        ))}
      </div>
    );
  }

  if (personalities.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed bg-card/60 px-6 py-14 text-center">
        <SparklesIcon className="size-8 text-gold" aria-hidden />
        <p className="font-display text-xl font-semibold">
          {signedIn ? messages.personality.emptySignedIn : messages.personality.emptySignedOut}
        </p>
        <p className="max-w-sm text-sm text-muted-foreground">
          {signedIn
            ? 'Click "Add Personality" to create your first one.'
            : 'Sign in to create personalities of your own.'}
        </p>
      </div>
    );
  }

  return <LoadedGrid {...props} personalities={personalities} searchId={searchId} />;
}

function LoadedGrid(props: Props & { personalities: Personality[]; searchId: string }) {
  const { personalities, signedIn, searchId, view, onViewChange } = props;
  const { query } = view;
  // Folded once per list, not per card per keystroke.
  const haystacks = useMemo(() => new Map(personalities.map((p) => [p.id, searchText(p)])), [personalities]);
  const words = searchWords(query);
  const searching = personalities.length >= SEARCH_FROM && words.length > 0;
  const matching = searching ? personalities.filter((p) => textMatches(haystacks.get(p.id)!, words)) : personalities;
  const shownCount = Math.min(matching.length, view.limit);
  const shownIds = new Set(matching.slice(0, shownCount).map((p) => p.id));

  // Cards shown once stay mounted, hidden while a search leaves them out: a card's open edit
  // form keeps its text. Cards never shown are not rendered at all.
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set());
  const newlyShown = [...shownIds].filter((id) => !kept.has(id));
  if (newlyShown.length > 0) setKept(new Set([...kept, ...newlyShown]));
  const mounted = personalities.filter((p) => shownIds.has(p.id) || kept.has(p.id));

  const list = useRef<HTMLUListElement>(null);
  const focusFrom = useRef<number | null>(null);
  const more = useCallback(() => onViewChange((v) => ({ ...v, limit: v.limit + PAGE_SIZE })), [onViewChange]);
  const showMore = () => {
    // Pressed: focus goes on to the first card added, where a keyboard user continues.
    focusFrom.current = shownCount;
    more();
  };
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null) return;
    focusFrom.current = null;
    const items = list.current?.querySelectorAll<HTMLLIElement>(':scope > li:not([hidden])');
    firstFocusable(items?.[from])?.focus();
  }, [shownCount]);

  // Scrolling near the end adds the next page. Observed again after each page: if the button is
  // still near (a tall screen), the next one is added too.
  const moreButton = useRef<HTMLButtonElement>(null);
  const hasMore = shownCount < matching.length;
  useEffect(() => {
    const target = moreButton.current;
    if (!hasMore || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          startTransition(more);
        }
      },
      { rootMargin: AUTO_MORE_MARGIN },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, shownCount, more]);

  return (
    <div className="grid gap-4">
      {personalities.length >= SEARCH_FROM && (
        <div className="grid gap-1.5">
          <label htmlFor={searchId} className="sr-only">
            Search personalities
          </label>
          <div className="relative max-w-sm">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              id={searchId}
              type="search"
              value={query}
              onChange={(e) => onViewChange((v) => ({ ...v, query: e.target.value }))}
              placeholder="Search by name or description"
              className="pl-9"
            />
          </div>
          {/* Announced as the list narrows. */}
          <p role="status" className="text-sm text-muted-foreground">
            {searching ? (matching.length === 0 ? `No personalities match "${query.trim()}".` : `${matching.length} of ${personalities.length} personalities`) : ''}
          </p>
        </div>
      )}
      <ul ref={list} className={gridClass} aria-label="Personalities">
        {mounted.map((p) => (
          // A card being edited (it holds a form) takes the whole row, so the form has room.
          <GridItem
            key={p.id}
            personality={p}
            hidden={!shownIds.has(p.id)}
            signedIn={signedIn}
            onStartChat={props.onStartChat}
            onOpenDocuments={props.onOpenDocuments}
            renderShareAction={props.renderShareAction}
          />
        ))}
      </ul>
      {hasMore && (
        <div className="flex flex-col items-center gap-2 py-2">
          <p className="text-sm text-muted-foreground">
            Showing {shownCount} of {matching.length} personalities
          </p>
          <Button ref={moreButton} variant="outline" onClick={showMore}>
            Show more personalities
          </Button>
        </div>
      )}
    </div>
  );
}

type GridItemProps = PersonalityCardProps & { hidden: boolean };

// Memoized: typing a search or adding a page re-renders the grid, not the cards already there.
const GridItem = memo(function GridItem({ hidden, ...card }: GridItemProps) {
  return (
    <li hidden={hidden} className="grid min-w-0 grid-cols-[minmax(0,1fr)] has-[form]:col-span-full">
      <PersonalityCard {...card} />
    </li>
  );
});
