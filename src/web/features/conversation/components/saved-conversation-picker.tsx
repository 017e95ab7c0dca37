// The "Saved conversations" picker: the most recently active conversations, a page at a time (a
// Radix Select renders every item, even closed, so thousands would stall the screen). When there
// are more, its last entry "Show older conversations" loads the next page; the list stays open and
// focus moves to the first older conversation, so a keyboard user carries on from where they were.
import { useEffect, useRef, useState, type Ref } from 'react';
import type { ConversationSummary } from '../../../../shared/schemas/conversations';
import { Select, SelectContent, SelectItem, SelectSeparator, SelectTrigger, SelectValue } from '../../../components/ui/select';

/** Not a conversation id (those are UUIDs): the "Show older conversations" entry. */
const SHOW_OLDER = 'show-older-conversations';

type Listed = Pick<ConversationSummary, 'id' | 'title'>;

interface Props {
  ref?: Ref<HTMLButtonElement>;
  /** The pages loaded so far, most recently active first. */
  conversations: Listed[];
  /** The open conversation when it is not in the pages loaded (older): listed last, so the picker can name it. */
  unlisted: Listed | null;
  /** The open conversation, one of the options (null: none, or a new one not listed yet). */
  activeId: string | null;
  /** The first page has not arrived yet (until then, "none yet" would be a guess). */
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onOpen: (conversationId: string) => void;
}

export function SavedConversationPicker({ ref, conversations, unlisted, activeId, loading, hasMore, loadingMore, onLoadMore, onOpen }: Props) {
  const [open, setOpen] = useState(false);
  // Radix closes the list after any choice; choosing "Show older conversations" keeps it open.
  const keepOpen = useRef(false);
  const focusOlder = useOlderConversationFocus(conversations, open);
  // One array, so the open conversation keeps its element when its page arrives and it moves up.
  const options = unlisted ? [...conversations, unlisted] : conversations;

  const choose = (value: string) => {
    if (value !== SHOW_OLDER) return onOpen(value);
    keepOpen.current = true;
    if (loadingMore) return;
    focusOlder.after(conversations.length);
    onLoadMore();
  };
  const openChange = (next: boolean) => {
    if (!next && keepOpen.current) {
      keepOpen.current = false;
      return;
    }
    setOpen(next);
  };

  const placeholder = loading ? 'Loading saved conversations...' : options.length === 0 ? 'No saved conversations yet' : 'New conversation (not saved yet)';
  return (
    <Select open={open} onOpenChange={openChange} value={activeId ?? ''} onValueChange={choose} disabled={options.length === 0}>
      <SelectTrigger ref={ref} aria-label="Saved conversations" className="h-9 min-w-0 flex-1">
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((c) => (
          <SelectItem key={c.id} value={c.id} ref={focusOlder.register(c.id)}>
            <bdi>{c.title}</bdi>
          </SelectItem>
        ))}
        {hasMore && (
          <>
            <SelectSeparator />
            {/* Stays focusable while loading (a disabled item would drop focus to the page). */}
            <SelectItem value={SHOW_OLDER} className="text-muted-foreground">
              {loadingMore ? 'Loading older conversations...' : 'Show older conversations'}
            </SelectItem>
          </>
        )}
      </SelectContent>
    </Select>
  );
}

/**
 * After "Show older conversations", focus goes to the first conversation of the new page once it
 * is shown (or to the last one, should the page bring none new). Forgotten when the list closes.
 */
function useOlderConversationFocus(conversations: Listed[], open: boolean) {
  const nodes = useRef(new Map<string, HTMLElement>());
  // The list as it was when older ones were asked for, and where the new ones will start.
  const [pending, setPending] = useState<{ before: Listed[]; firstNew: number } | null>(null);

  useEffect(() => {
    if (!pending) return;
    if (!open) return setPending(null);
    // The same list (the hook keeps it while nothing changed): the page has not arrived yet.
    if (conversations === pending.before) return;
    const target = conversations[pending.firstNew] ?? conversations.at(-1);
    if (target) nodes.current.get(target.id)?.focus();
    setPending(null);
  }, [open, conversations, pending]);

  return {
    after: (count: number) => setPending({ before: conversations, firstNew: count }),
    register: (id: string) => (node: HTMLElement | null) => {
      if (!node) return;
      nodes.current.set(id, node);
      return () => void nodes.current.delete(id);
    },
  };
}
