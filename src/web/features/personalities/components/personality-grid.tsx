// The library's body: loading skeletons, a load error with retry, the empty states, or the grid
// (one column on phones, two on tablets, three on desktops). A library of more than a few rows
// gets a search box: with hundreds of public personalities listed first, a person's own ones are
// otherwise hundreds of cards down.
import { useId, useState, type ReactNode } from 'react';
import { RotateCwIcon, SearchIcon, SparklesIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { Personality } from '../../../../shared/schemas/personality';
import { errorMessage } from '../../../lib/api-client';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { matchesSearch } from '../utils/library-search';
import { PersonalityCard } from './personality-card';

interface Props {
  personalities: Personality[] | undefined;
  isPending: boolean;
  error: unknown;
  isRetrying: boolean;
  onRetry: () => void;
  signedIn: boolean;
  onStartChat: (personality: Personality) => void;
  onOpenDocuments: (personality: Personality) => void;
  renderShareAction?: (personality: Personality) => ReactNode;
}

const gridClass = 'grid grid-cols-1 gap-5 sm:grid-cols-2 xl:grid-cols-3';
/** More personalities than three rows of the widest grid: the search box is shown. */
export const SEARCH_FROM = 10;

export function PersonalityGrid(props: Props) {
  const { personalities, isPending, error, signedIn } = props;
  const [query, setQuery] = useState('');
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

  const searching = personalities.length >= SEARCH_FROM && query.trim() !== '';
  const shown = searching ? personalities.filter((p) => matchesSearch(p, query)).length : personalities.length;
  return (
    <div className="grid gap-4">
      {personalities.length >= SEARCH_FROM && (
        <div className="grid gap-1.5">
          <label htmlFor={searchId} className="sr-only">
            Search personalities
          </label>
          <div className="relative max-w-sm">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search by name or description" className="pl-9" />
          </div>
          {/* Announced as the list narrows. */}
          <p role="status" className="text-sm text-muted-foreground">
            {searching ? (shown === 0 ? `No personalities match "${query.trim()}".` : `${shown} of ${personalities.length} personalities`) : ''}
          </p>
        </div>
      )}
      <ul className={gridClass} aria-label="Personalities">
        {personalities.map((p) => (
          // A card being edited (it holds a form) takes the whole row, so the form has room. Cards
          // a search leaves out are hidden, not removed: a card's open edit form keeps its text.
          <li
            key={p.id}
            hidden={searching && !matchesSearch(p, query)}
            className="grid min-w-0 grid-cols-[minmax(0,1fr)] has-[form]:col-span-full"
          >
            <PersonalityCard
              personality={p}
              signedIn={signedIn}
              onStartChat={props.onStartChat}
              onOpenDocuments={props.onOpenDocuments}
              renderShareAction={props.renderShareAction}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
