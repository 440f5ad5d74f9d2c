import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { checkStorageKey, type ReceiptStorage } from './receipt-storage';

/** The S3 adapter's settings: the client (endpoint, region, credentials) is made by the composition root. */
export type S3StorageOptions = {
  client: S3Client;
  bucket: string;
  /** Prepended to every key (`receipts/`), so one bucket may hold other things. @default '' */
  keyPrefix?: string;
};

/**
 * Receipt storage in S3-compatible object storage (`RECEIPT_STORAGE=s3`, for a fleet: every
 * process sees the same files). Objects are private; clients get them only through the API's
 * signed download URLs, never from the bucket.
 */
export function createS3Storage(options: S3StorageOptions): ReceiptStorage {
  const { client, bucket } = options;
  const base = options.keyPrefix ?? '';
  const keyOf = (key: string) => `${base}${checkStorageKey(key)}`;
  return {
    async put(key, file) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(key),
          Body: file.bytes,
          ContentType: file.contentType,
        }),
      );
    },
    async get(key) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        if (!out.Body) return undefined;
        const bytes = Buffer.from(await out.Body.transformToByteArray());
        return { bytes, contentType: out.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: `${base}${prefix}`, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key.slice(base.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
  };
}
