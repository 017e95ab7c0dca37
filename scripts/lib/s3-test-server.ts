// A real S3-compatible server (s3rver) on loopback, for tests, the local multi-process setup and
// benchmarks: a free port, a temporary folder, one bucket. s3rver speaks S3 over HTTP (multipart
// uploads, ListObjectsV2, DeleteObjects), which is what the storage code sends to AWS or MinIO.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const serverScript = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));

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
  // Its own process (see s3rver-process.mjs): listings longer than one page need OpenSSL's legacy provider.
  const child = spawn(process.execPath, ['--openssl-legacy-provider', serverScript, directory, bucket, String(opts.port ?? 0)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code} before listening`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
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
      child.stdin!.end();
      await exited;
      if (!opts.directory) fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
