// The storage the configuration names: S3-compatible object storage when S3_BUCKET is set (needed
// as soon as several app processes serve one site), else files under DATA_DIR/blobs.
import path from 'node:path';
import type { AppConfig } from '../config';
import type { BlobStorage } from './storage';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';

export function createConfiguredStorage(config: Pick<AppConfig, 's3' | 'dataDir'>): BlobStorage {
  if (config.s3) return createS3Storage(config.s3);
  return createLocalStorage(path.join(config.dataDir, 'blobs'));
}

/** For the start-up log: where blobs go, never a key or secret. */
export function describeStorage(config: Pick<AppConfig, 's3' | 'dataDir'>): string {
  if (!config.s3) return `files in ${path.join(config.dataDir, 'blobs')}`;
  return `S3 bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${new URL(config.s3.endpoint).origin}` : ''}`;
}
