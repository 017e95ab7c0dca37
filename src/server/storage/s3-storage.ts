// Blobs in any S3-compatible object store (AWS S3, MinIO, Cloudflare R2, Garage) through the
// official SDK, so several app processes see the same files. Keys are the same server-made keys
// as on disk; the spec's "buckets" (personality-docs, voice-recordings) are key prefixes in one
// bucket. Large blobs go up as a multipart upload (lib-storage) that is aborted on failure, so a
// broken upload leaves no object and no stray parts behind.
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertValidKey, assertValidPrefix, BlobNotFoundError, type BlobStorage } from './storage';

export interface S3StorageOptions {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000; unset: AWS's own endpoint. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** MinIO, s3rver and most self-hosted servers want path-style URLs (http://host/bucket/key). */
  forcePathStyle: boolean;
  /** Parts of a multipart upload (S3's minimum is 5 MiB); smaller blobs go in one request. */
  partSizeBytes?: number;
  /** Keys listed (and deleted) per request by deletePrefix: S3's maximum, 1000; tests page smaller. */
  listPageSize?: number;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

export function createS3Storage(opts: S3StorageOptions): BlobStorage & { client: S3Client } {
  const client = new S3Client({
    endpoint: opts.endpoint,
    region: opts.region,
    forcePathStyle: opts.forcePathStyle,
    // Without explicit keys the SDK's own chain (environment, instance role) applies.
    credentials: opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
    // Only S3 itself and a few servers accept the newer default checksums on every request.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = opts.bucket;

  async function openObject(key: string) {
    assertValidKey(key);
    try {
      const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      return { body: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
        throw new BlobNotFoundError(key);
      }
      throw err;
    }
  }

  return {
    client,
    async put(key, data) {
      assertValidKey(key);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: data },
        partSize: opts.partSizeBytes ?? DEFAULT_PART_SIZE,
        queueSize: 2,
        // On failure the multipart upload is aborted: its parts are discarded, no object appears.
        leavePartsOnError: false,
      });
      await upload.done();
    },
    async get(key) {
      const { body } = await openObject(key);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks);
    },
    async openRead(key) {
      const { body, size } = await openObject(key);
      return { stream: body, size };
    },
    async delete(key) {
      assertValidKey(key);
      // S3 answers 204 for a missing key too: deleting what is not there is not an error.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      // List a page, delete it, list again from the start until nothing is left. Listing afresh
      // (instead of following a continuation token) cannot skip keys as the listing shrinks.
      for (;;) {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: opts.listPageSize ?? 1000 }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length === 0) return;
        const out = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
        if (out.Errors && out.Errors.length > 0) {
          throw new Error(`could not delete ${out.Errors.length} stored object(s) under ${prefix}: ${out.Errors[0]?.Code ?? 'error'}`);
        }
      }
    },
  };
}
