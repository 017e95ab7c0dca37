import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, documentKey, personalityPrefix, sanitizeFileName } from './storage';
import { createLocalStorage } from './local-storage';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-storage-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('storage keys', () => {
  it('reduces any uploaded name to one safe segment', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('/absolute/path/notes.txt')).toBe('notes.txt');
    expect(sanitizeFileName('C:\\Users\\me\\notes.txt')).toBe('notes.txt');
    expect(sanitizeFileName('nul\u0000byte.txt')).toBe('nul_byte.txt');
    expect(sanitizeFileName('..%2F..%2Fescape.txt')).toBe('2F._2Fescape.txt');
    expect(sanitizeFileName('résumé 日本語.txt')).toBe('resume_.txt');
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('')).toBe('file');
    expect(sanitizeFileName('．．／evil')).toBe('evil'); // full-width dots and slash (NFKC)
    const long = sanitizeFileName(`${'x'.repeat(500)}.pdf`);
    expect(long.length).toBe(100);
    expect(long.endsWith('.pdf')).toBe(true);
  });

  it('builds user/personality/timestamp_random_name keys', () => {
    const key = documentKey('user123', '0b6f3c1e-1111-4222-8333-444455556666', '../../x y.txt', new Date(1700000000000));
    expect(key).toMatch(/^user123\/0b6f3c1e-1111-4222-8333-444455556666\/1700000000000_[0-9a-f]{8}_x_y\.txt$/);
    expect(() => documentKey('../evil', 'p', 'a.txt', new Date())).toThrow();
    expect(personalityPrefix('u', 'p')).toBe('u/p/');
  });
});

describe('local storage', () => {
  const storage = createLocalStorage(root);

  it('puts, gets and deletes blobs under its root', async () => {
    await storage.put('u/p/1_a.txt', new TextEncoder().encode('hello'));
    expect((await storage.get('u/p/1_a.txt')).toString()).toBe('hello');
    expect(fs.existsSync(path.join(root, 'u', 'p', '1_a.txt'))).toBe(true);
    await storage.delete('u/p/1_a.txt');
    await expect(storage.get('u/p/1_a.txt')).rejects.toBeInstanceOf(BlobNotFoundError);
    await storage.delete('u/p/1_a.txt'); // missing is fine
  });

  it('refuses keys that could leave the root', async () => {
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a/./b', 'a\u0000b', 'a\\b', '', 'a/b/']) {
      await expect(storage.put(bad, new Uint8Array([1]))).rejects.toThrow('Invalid storage key');
      await expect(storage.get(bad)).rejects.toThrow('Invalid storage key');
    }
    await expect(storage.deletePrefix('../')).rejects.toThrow();
    await expect(storage.deletePrefix('u')).rejects.toThrow();
  });

  it('deletes everything under a prefix', async () => {
    await storage.put('u2/p1/1_a.txt', new Uint8Array([1]));
    await storage.put('u2/p1/2_b.txt', new Uint8Array([2]));
    await storage.put('u2/p2/3_c.txt', new Uint8Array([3]));
    await storage.deletePrefix('u2/p1/');
    expect(fs.existsSync(path.join(root, 'u2', 'p1'))).toBe(false);
    expect((await storage.get('u2/p2/3_c.txt'))[0]).toBe(3);
  });
});
