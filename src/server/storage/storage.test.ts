import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, documentKey, personalityPrefix, sanitizeFileName } from './storage';
import { createLocalStorage } from './local-storage';
import { blobStorageContract } from './storage-contract';

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
  blobStorageContract(
    () => storage,
    async (key) => fs.existsSync(path.join(root, ...key.split('/'))),
  );

  it('keeps blobs as files under its root and drops emptied folders', async () => {
    await storage.put('u4/p/1_a.txt', new TextEncoder().encode('hello'));
    expect(fs.readFileSync(path.join(root, 'u4', 'p', '1_a.txt'), 'utf8')).toBe('hello');
    await storage.delete('u4/p/1_a.txt');
    expect(fs.existsSync(path.join(root, 'u4'))).toBe(false);
  });

  it('leaves no temporary file behind a failed streamed upload', async () => {
    // (the contract's failing upload ran above, under u3/p)
    const dir = path.join(root, 'u3', 'p');
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });
});
