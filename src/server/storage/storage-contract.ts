// The behaviour every BlobStorage must have, run against each implementation (local files and
// S3-compatible object storage), so swapping one for the other changes nothing a caller sees.
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { BlobNotFoundError, type BlobStorage } from './storage';

export function blobStorageContract(storage: () => BlobStorage, exists: (key: string) => Promise<boolean>) {
  it('puts, gets and deletes blobs', async () => {
    const s = storage();
    await s.put('u/p/1_a.txt', new TextEncoder().encode('hello'));
    expect((await s.get('u/p/1_a.txt')).toString()).toBe('hello');
    expect(await exists('u/p/1_a.txt')).toBe(true);
    await s.delete('u/p/1_a.txt');
    expect(await exists('u/p/1_a.txt')).toBe(false);
    await expect(s.get('u/p/1_a.txt')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(s.openRead('u/p/1_a.txt')).rejects.toBeInstanceOf(BlobNotFoundError);
    await s.delete('u/p/1_a.txt'); // missing is fine
  });

  it('streams a blob out with its size', async () => {
    const s = storage();
    const bytes = Buffer.alloc(300_000, 7);
    await s.put('u/p/2_stream.bin', bytes);
    const { stream, size } = await s.openRead('u/p/2_stream.bin');
    expect(size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    await s.delete('u/p/2_stream.bin');
  });

  it('refuses keys that could leave the root', async () => {
    const s = storage();
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a/./b', 'a\u0000b', 'a\\b', '', 'a/b/']) {
      await expect(s.put(bad, new Uint8Array([1]))).rejects.toThrow('Invalid storage key');
      await expect(s.get(bad)).rejects.toThrow('Invalid storage key');
    }
    await expect(s.deletePrefix('../')).rejects.toThrow();
    await expect(s.deletePrefix('u')).rejects.toThrow();
  });

  it('deletes everything under a prefix, and only that', async () => {
    const s = storage();
    await s.put('u2/p1/1_a.txt', new Uint8Array([1]));
    await s.put('u2/p1/2_b.txt', new Uint8Array([2]));
    await s.put('u2/p10/9_z.txt', new Uint8Array([9])); // shares the characters "u2/p1", not the folder
    await s.put('u2/p2/3_c.txt', new Uint8Array([3]));
    await s.deletePrefix('u2/p1/');
    expect(await exists('u2/p1/1_a.txt')).toBe(false);
    expect(await exists('u2/p1/2_b.txt')).toBe(false);
    expect((await s.get('u2/p2/3_c.txt'))[0]).toBe(3);
    expect((await s.get('u2/p10/9_z.txt'))[0]).toBe(9);
  });

  it('leaves nothing under the key when a streamed upload fails part-way', async () => {
    const s = storage();
    async function* failing() {
      yield Buffer.alloc(6 * 1024 * 1024, 1);
      yield Buffer.alloc(6 * 1024 * 1024, 2);
      throw new Error('client went away');
    }
    await expect(s.put('u3/p/1_broken.bin', Readable.from(failing()))).rejects.toThrow();
    expect(await exists('u3/p/1_broken.bin')).toBe(false);
  });
}
