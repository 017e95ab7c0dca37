// Pure rules of the Personality Ordering tab (spec sections 5 and 9): order numbers start at 1
// and are reassigned in sequence after a drag or a sort; a non-numeric input becomes 0.
import type { AdminPersonality } from '../../../../shared/schemas/admin';
import { compareNames } from '../../../../shared/name-order';

export interface OrderItem extends AdminPersonality {
  /** The value in the Order input, sent as display_order when saved. */
  order: number;
}

/**
 * The server's list, in library order (set orders first, then unset ones by name). An unset order
 * is shown as the next number after the largest one before it, so a newly approved personality
 * never appears with a number another one already has.
 */
export function fromServer(list: AdminPersonality[]): OrderItem[] {
  let largest = 0;
  return list.map((p) => {
    const order = p.displayOrder ?? largest + 1;
    largest = Math.max(largest, order);
    return { ...p, order };
  });
}

export function renumber(items: OrderItem[]): OrderItem[] {
  return items.map((p, i) => ({ ...p, order: i + 1 }));
}

const byName = (a: OrderItem, b: OrderItem) => compareNames(a.name, b.name);

export function sortByName(items: OrderItem[]): OrderItem[] {
  return renumber([...items].sort(byName));
}

/** Oldest first; equal times fall back to the name so the result never depends on input order. */
export function sortByCreation(items: OrderItem[]): OrderItem[] {
  const time = (p: OrderItem) => new Date(p.createdAt).getTime();
  return renumber([...items].sort((a, b) => time(a) - time(b) || byName(a, b)));
}

/** The largest order the API accepts. */
export const MAX_ORDER = 1_000_000;

/** Spec: non-numeric becomes 0. Negative numbers are not orders either; huge ones are capped. */
export function parseOrderInput(raw: string): number {
  const n = Number.parseInt(raw, 10);
  if (Number.isNaN(n) || n < 0) return 0;
  return Math.min(n, MAX_ORDER);
}

export function moveItem(items: OrderItem[], fromId: string, toId: string): OrderItem[] {
  const from = items.findIndex((p) => p.id === fromId);
  const to = items.findIndex((p) => p.id === toId);
  if (from < 0 || to < 0 || from === to) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return renumber(next);
}

/** True when the inputs differ from what the server has. */
export function hasUnsavedChanges(items: OrderItem[], saved: OrderItem[]): boolean {
  if (items.length !== saved.length) return true;
  return items.some((p, i) => p.id !== saved[i]!.id || p.order !== saved[i]!.order);
}
