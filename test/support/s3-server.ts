import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** A real S3-compatible HTTP server for the tests (s3rver, in this process), on a random port. */
export type TestS3Server = {
  endpoint: string;
  bucket: string;
  /** What `RECEIPT_STORAGE=s3` needs to use it. */
  env: Record<string, string>;
  stop(): Promise<void>;
};

/** Starts s3rver on a free port of 127.0.0.1 with one empty bucket, its files in a temp folder. */
export async function startS3Server(bucket = 'receipts'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'tally-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      RECEIPT_STORAGE: 's3',
      RECEIPT_S3_BUCKET: bucket,
      RECEIPT_S3_ENDPOINT: endpoint,
      RECEIPT_S3_FORCE_PATH_STYLE: 'true',
      // s3rver accepts any key pair it was not told about: these are S3rver's documented defaults.
      RECEIPT_S3_ACCESS_KEY_ID: 'S3RVER',
      RECEIPT_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
