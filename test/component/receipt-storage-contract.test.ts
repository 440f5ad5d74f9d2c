/**
 * API.md §16: one contract suite over every adapter of the receipt storage port: the directory
 * (the embedded default) and S3 (`@aws-sdk/client-s3` against s3rver, a real S3-compatible HTTP
 * server in Node, started on a random port).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openReceiptStorage, type ReceiptStorage } from '@tally/api';
import { startS3Server, type TestS3Server } from '../support/s3-server';

type Adapter = { name: string; open(): Promise<{ storage: ReceiptStorage; close(): Promise<void> }> };

const ADAPTERS: Adapter[] = [
  {
    name: 'directory',
    async open() {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-receipts-contract-'));
      return {
        storage: openReceiptStorage({ kind: 'directory', dataDir }),
        close: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 's3 (s3rver)',
    async open() {
      const s3: TestS3Server = await startS3Server();
      const storage = openReceiptStorage({
        kind: 's3',
        bucket: s3.bucket,
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        keyPrefix: 'receipts/',
      });
      return { storage, close: () => s3.stop() };
    },
  },
];

describe.each(ADAPTERS)('receipt storage contract: $name', (adapter) => {
  let storage: ReceiptStorage;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, close } = await adapter.open());
  });
  afterAll(async () => {
    await close();
  });

  const bytes = (text: string) => Buffer.from(text, 'utf8');

  it('gives back what was put, with its media type, and undefined for a key never put', async () => {
    await storage.put('exp_A/aaa.jpg', { bytes: bytes('jpeg bytes'), contentType: 'image/jpeg' });
    const file = await storage.get('exp_A/aaa.jpg');
    expect(file?.contentType).toBe('image/jpeg');
    expect(file?.bytes.toString('utf8')).toBe('jpeg bytes');
    expect(await storage.get('exp_A/missing.jpg')).toBeUndefined();
    expect(await storage.get('exp_nothing/x.png')).toBeUndefined();
  });

  it('replaces a file put again under the same key', async () => {
    await storage.put('exp_B/bbb.png', { bytes: bytes('one'), contentType: 'image/png' });
    await storage.put('exp_B/bbb.png', { bytes: bytes('two'), contentType: 'image/png' });
    expect((await storage.get('exp_B/bbb.png'))?.bytes.toString('utf8')).toBe('two');
  });

  it('keeps binary content byte for byte', async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await storage.put('exp_C/ccc.pdf', { bytes: all, contentType: 'application/pdf' });
    expect((await storage.get('exp_C/ccc.pdf'))?.bytes.equals(all)).toBe(true);
  });

  it('lists every key under a prefix and nothing outside it', async () => {
    await storage.put('exp_D/one.jpg', { bytes: bytes('1'), contentType: 'image/jpeg' });
    await storage.put('exp_D/one.thumb.webp', { bytes: bytes('2'), contentType: 'image/webp' });
    await storage.put('exp_DD/other.jpg', { bytes: bytes('3'), contentType: 'image/jpeg' });
    expect((await storage.list('exp_D/')).sort()).toEqual(['exp_D/one.jpg', 'exp_D/one.thumb.webp']);
    expect(await storage.list('exp_none/')).toEqual([]);
  });

  it('deletes a key (a missing one too, without an error)', async () => {
    await storage.put('exp_E/eee.webp', { bytes: bytes('e'), contentType: 'image/webp' });
    await storage.delete('exp_E/eee.webp');
    expect(await storage.get('exp_E/eee.webp')).toBeUndefined();
    expect(await storage.list('exp_E/')).toEqual([]);
    await expect(storage.delete('exp_E/eee.webp')).resolves.toBeUndefined();
  });

  it('refuses a key that could leave its folder', async () => {
    await expect(
      storage.put('../escape.jpg', { bytes: bytes('x'), contentType: 'image/jpeg' }),
    ).rejects.toThrow(/bad key/);
    await expect(storage.get('exp_F/../../x')).rejects.toThrow(/bad key/);
  });
});
