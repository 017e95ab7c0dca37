// One card of the Personality Ordering tab: a drag handle (pointer and keyboard), the name,
// sharing badge, description, creation date, creator and the numeric Order input.
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { formatDateTime } from '../../../lib/date-format';
import { GlobeIcon, GripVerticalIcon } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { Badge } from '../../../components/ui/badge';
import { Input } from '../../../components/ui/input';
import type { OrderItem } from '../utils/ordering';

interface Props {
  item: OrderItem;
  onOrderChange: (id: string, raw: string) => void;
}

export function SortablePersonalityCard({ item, onOrderChange }: Props) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
  });
  const inputId = `order-${item.id}`;
  return (
    <li
      ref={setNodeRef}
      // Translate only: cards differ in height, and scaling one to its neighbour's size distorts it.
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="ordering-card"
      data-personality-id={item.id}
      className={cn(
        'relative flex items-start gap-2 rounded-xl border bg-card p-3 shadow-sm sm:gap-3 sm:p-4',
        isDragging && 'z-10 shadow-lg ring-2 ring-ring/50',
      )}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={`Drag ${item.name}`}
        className="-ml-1 flex h-10 w-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
      >
        <GripVerticalIcon className="size-5" aria-hidden />
      </button>
      <div className="grid min-w-0 flex-1 gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <h3 dir="auto" className="min-w-0 font-medium [overflow-wrap:anywhere]">
            {item.name}
          </h3>
          <Badge variant="success" className="capitalize">
            <GlobeIcon aria-hidden />
            {item.sharingType}
          </Badge>
        </div>
        {item.description && (
          <p dir="auto" className="line-clamp-2 text-sm [overflow-wrap:anywhere] text-muted-foreground">
            {item.description}
          </p>
        )}
        <p className="text-xs text-muted-foreground">
          Created {formatDateTime(item.createdAt)} <span aria-hidden>·</span>{' '}
          <span className="wrap-anywhere">{item.creatorEmail}</span>
        </p>
      </div>
      <div className="grid shrink-0 justify-items-end gap-1">
        <label htmlFor={inputId} className="text-xs font-medium text-muted-foreground">
          Order
        </label>
        <Input
          id={inputId}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          className="h-9 w-16 text-right sm:w-20"
          aria-label={`Order for ${item.name}`}
          value={item.order}
          onChange={(e) => onOrderChange(item.id, e.target.value)}
        />
      </div>
    </li>
  );
}
