import { describe, expect, it } from 'vitest';
import { uuidV4FromBytes } from './uuid-v4';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidV4FromBytes', () => {
  it('sets the version and variant bits and keeps the other bits', () => {
    expect(uuidV4FromBytes(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(uuidV4FromBytes(new Uint8Array(16))).toBe('00000000-0000-4000-8000-000000000000');
    const counting = Uint8Array.from({ length: 20 }, (_, i) => i);
    expect(uuidV4FromBytes(counting)).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
    expect(counting[6]).toBe(6); // the caller's bytes are left as they were
  });

  it('gives a valid version 4 UUID for any bytes, and refuses fewer than 16', () => {
    for (let i = 0; i < 50; i++) expect(uuidV4FromBytes(crypto.getRandomValues(new Uint8Array(16)))).toMatch(UUID_V4);
    expect(() => uuidV4FromBytes(new Uint8Array(15))).toThrow(/16 bytes/);
  });
});
