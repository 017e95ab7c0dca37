// A real S3-compatible server (s3rver) on loopback, for tests, the local multi-process setup and
// benchmarks: a free port, a temporary folder, one bucket. s3rver speaks S3 over HTTP (multipart
// uploads, ListObjectsV2, DeleteObjects), which is what the storage code sends to AWS or MinIO.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** Folder s3rver keeps objects in (tests look at it to prove nothing was left behind). */
  directory: string;
  /** The env a Kindred process needs to use it. s3rver accepts this fixed key pair. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3TestServer(opts: { port?: number; bucket?: string; directory?: string } = {}): Promise<S3TestServer> {
  const bucket = opts.bucket ?? 'kindred-test';
  const directory = opts.directory ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port ?? 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      if (!opts.directory) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
