import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { createDirectoryStorage } from './directory-storage';
import type { ReceiptStorage } from './receipt-storage';
import { createS3Storage } from './s3-storage';

/** The receipt storage settings of `RECEIPT_STORAGE` and `RECEIPT_S3_*` (API.md §10). */
export type ReceiptStorageSettings =
  | { kind: 'directory'; dataDir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string | undefined;
      forcePathStyle?: boolean;
      credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
      keyPrefix?: string;
    };

/** The adapter the settings name: `DATA_DIR/receipts`, or the bucket (no connection is opened here). */
export function openReceiptStorage(settings: ReceiptStorageSettings): ReceiptStorage {
  if (settings.kind === 'directory') return createDirectoryStorage(join(settings.dataDir, 'receipts'));
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
  });
  return createS3Storage({ client, bucket: settings.bucket, keyPrefix: settings.keyPrefix });
}
