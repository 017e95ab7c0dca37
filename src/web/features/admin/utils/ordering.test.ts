import { describe, expect, it } from 'vitest';
import { fromServer, moveItem, parseOrderInput, renumber, type OrderItem } from './ordering';

const item = (id: string, order: number): OrderItem => ({
  id,
  name: id,
  description: null,
  creatorEmail: 'x@example.com',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  sharingType: 'public',
  displayOrder: null,
  hasAvatar: false,
  order,
});

describe('ordering rules', () => {
  it('a drag moves the card and renumbers everything from 1', () => {
    const moved = moveItem([item('a', 5), item('b', 9), item('c', 0)], 'a', 'c');
    expect(moved.map((p) => [p.id, p.order])).toEqual([
      ['b', 1],
      ['c', 2],
      ['a', 3],
    ]);
    expect(renumber([item('x', 40)])[0]!.order).toBe(1);
  });

  it('non-numeric input becomes 0; negatives are not orders; whole numbers are kept', () => {
    expect(parseOrderInput('')).toBe(0);
    expect(parseOrderInput('abc')).toBe(0);
    expect(parseOrderInput('-4')).toBe(0);
    expect(parseOrderInput('12')).toBe(12);
    expect(parseOrderInput('3.7')).toBe(3);
  });

  it('keeps saved display orders and numbers unset ones after the largest before them', () => {
    const list = fromServer([{ ...item('a', 0), displayOrder: 4 }, item('b', 0)]);
    expect(list.map((p) => p.order)).toEqual([4, 5]);
    // A gap left by a personality that went private, and one newly approved: no number twice.
    const gap = fromServer([
      { ...item('a', 0), displayOrder: 1 },
      { ...item('b', 0), displayOrder: 2 },
      { ...item('d', 0), displayOrder: 4 },
      item('c', 0),
      item('e', 0),
    ]);
    expect(gap.map((p) => p.order)).toEqual([1, 2, 4, 5, 6]);
  });
});
