// Personality Ordering: public personalities as drag-sortable cards; the saved order is the order
// of the library's public section for everyone. Edits stay local until "Save Order".
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type Modifier,
} from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { ArrowDownAZIcon, CalendarClockIcon, LoaderCircleIcon, RotateCcwIcon, SaveIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { Button } from '../../../components/ui/button';
import { useOrdering } from '../api/list-ordering';
import { useSaveOrder } from '../api/save-order';
import {
  fromServer,
  hasUnsavedChanges,
  moveItem,
  parseOrderInput,
  sortByCreation,
  sortByName,
  type OrderItem,
} from '../utils/ordering';
import { SortablePersonalityCard } from './sortable-personality-card';
import { AdminEmpty, AdminLoadError, AdminListSkeleton } from './admin-states';

/** Spec section 9: each arrow press moves the dragged card 25 px. */
export const KEYBOARD_STEP_PX = 25;

export const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  const { x, y } = currentCoordinates;
  switch (event.code) {
    case 'ArrowDown':
      return { x, y: y + KEYBOARD_STEP_PX };
    case 'ArrowUp':
      return { x, y: y - KEYBOARD_STEP_PX };
    case 'ArrowRight':
      return { x: x + KEYBOARD_STEP_PX, y };
    case 'ArrowLeft':
      return { x: x - KEYBOARD_STEP_PX, y };
    default:
      return undefined;
  }
};

/** The list is one column: cards only move up and down. */
const restrictToVerticalAxis: Modifier = ({ transform }) => ({ ...transform, x: 0 });

export function OrderingTab() {
  const ordering = useOrdering();
  const save = useSaveOrder();
  const saved = useMemo(() => fromServer(ordering.data ?? []), [ordering.data]);
  const [items, setItems] = useState<OrderItem[]>(saved);
  // Each fresh answer from the server (first load, Reset, after saving) replaces the local edits.
  const [seenAt, setSeenAt] = useState(ordering.dataUpdatedAt);
  if (ordering.dataUpdatedAt !== seenAt) {
    setSeenAt(ordering.dataUpdatedAt);
    setItems(saved);
  }

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );

  const nameOf = (id: string | number) => items.find((p) => p.id === id)?.name ?? 'personality';
  const positionOf = (id: string | number) => items.findIndex((p) => p.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, position ${positionOf(active.id)} of ${items.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(active.id)} moved to position ${positionOf(over.id)} of ${items.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over ? `${nameOf(active.id)} dropped at position ${positionOf(over.id)} of ${items.length}.` : undefined,
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (over) setItems((current) => moveItem(current, String(active.id), String(over.id)));
  }

  function onOrderChange(id: string, raw: string) {
    const order = parseOrderInput(raw);
    setItems((current) => current.map((p) => (p.id === id ? { ...p, order } : p)));
  }

  function onSave() {
    save.mutate(
      items.map((p) => ({ id: p.id, displayOrder: p.order })),
      {
        onSuccess: () => toast.success(messages.admin.orderSaved),
        onError: () => toast.error(messages.admin.orderFailed),
      },
    );
  }

  if (ordering.isPending) return <AdminListSkeleton label="Loading personalities" />;
  if (ordering.isError && !ordering.data) {
    return <AdminLoadError title={messages.admin.loadPersonalitiesFailed} error={ordering.error} onRetry={() => void ordering.refetch()} />;
  }

  const dirty = hasUnsavedChanges(items, saved);
  return (
    <section aria-labelledby="ordering-title" className="grid gap-4">
      <div className="grid gap-1">
        {/* Not the tab's name again (the summary cards and other tabs' headings likewise keep
            to their own words): a search for the spec's "Personality Ordering" finds the tab. */}
        <h2 id="ordering-title" className="font-display text-xl font-semibold">
          Order of the public library
        </h2>
        <p className="text-sm text-muted-foreground">
          Drag the cards (or focus a handle and use Space and the arrow keys) or type the numbers to set the order. This
          is the order everyone browsing public personalities sees in the library.
        </p>
      </div>
      {/* Stays in view while the list scrolls, below the fixed header (h-16): an admin who moved a
          card near the end of a long list saves it there, without scrolling back to the top. */}
      <div className="sticky top-16 z-10 -mx-1 flex flex-wrap items-center gap-2 bg-background/95 px-1 py-2 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <Button variant="outline" size="sm" onClick={() => setItems(sortByName)} disabled={items.length === 0}>
          <ArrowDownAZIcon aria-hidden />
          A-Z Order
        </Button>
        <Button variant="outline" size="sm" onClick={() => setItems(sortByCreation)} disabled={items.length === 0}>
          <CalendarClockIcon aria-hidden />
          Creation Date
        </Button>
        <Button variant="ghost" size="sm" onClick={() => void ordering.refetch()} disabled={ordering.isFetching}>
          <RotateCcwIcon className={ordering.isFetching ? 'animate-spin' : undefined} aria-hidden />
          Reset
        </Button>
        <Button
          variant="mystical"
          size="sm"
          className="sm:ml-auto"
          onClick={onSave}
          disabled={save.isPending || items.length === 0}
        >
          {save.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <SaveIcon aria-hidden />}
          Save Order
        </Button>
        {dirty && (
          <p role="status" className="w-full text-xs text-warning-foreground sm:order-last">
            Unsaved changes
          </p>
        )}
      </div>
      {items.length === 0 ? (
        <AdminEmpty text={messages.admin.noPublicPersonalities} />
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          modifiers={[restrictToVerticalAxis]}
          onDragEnd={onDragEnd}
          accessibility={{ announcements }}
        >
          <SortableContext items={items.map((p) => p.id)} strategy={verticalListSortingStrategy}>
            <ol className="grid gap-2" aria-label="Public personalities in library order">
              {items.map((item) => (
                <SortablePersonalityCard key={item.id} item={item} onOrderChange={onOrderChange} />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
    </section>
  );
}
