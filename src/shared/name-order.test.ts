import { describe, expect, it } from 'vitest';
import { compareNames } from './name-order';

describe('compareNames', () => {
  it('puts accented and non-Latin names where a reader expects them, not after Z', () => {
    const names = ['zebra', 'Élodie', 'Лев', 'Ana María', 'Émile', 'Zoë', 'Goethe', 'Elena', 'Agent 10', 'Agent 9', 'aardvark'];
    expect([...names].sort(compareNames)).toEqual(['aardvark', 'Agent 9', 'Agent 10', 'Ana María', 'Elena', 'Élodie', 'Émile', 'Goethe', 'zebra', 'Zoë', 'Лев']);
  });

  it('is a total order: names equal but for case or accents still compare unequal, consistently', () => {
    expect(compareNames('Zoe', 'zoe')).not.toBe(0);
    expect(Math.sign(compareNames('Zoe', 'zoe'))).toBe(-Math.sign(compareNames('zoe', 'Zoe')));
    expect(compareNames('Zoë', 'Zoë')).toBe(0);
  });
});
