/**
 * API.md §16: receipts on file. Uploads are sniffed (not believed from Content-Type), images
 * re-encoded without metadata (EXIF with GPS included) with a thumbnail, HEIC decoded, PDFs kept;
 * downloads only through signed, expiring links; the change is a keyed group write with an event;
 * an expense's or an account's deletion takes the files; the export links them. The whole flow
 * also runs with `RECEIPT_STORAGE=s3` against s3rver.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { createReceiptLinks } from '../../apps/api/src/receipts/receipt-links';
import { testSeed, withSeed } from '../support/random';
import { startS3Server, type TestS3Server } from '../support/s3-server';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { expectProblem, postExpense } from './component-helpers';

const LINK_SECRET = 'receipt-link-secret-for-the-tests-0123456789';
const HEIC = readFileSync(path.join(__dirname, '../fixtures/receipt.heic'));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A JPEG that says where it was taken (GPS in EXIF) and who made it. */
const jpegWithLocation = (width = 120, height = 80) =>
  sharp({ create: { width, height, channels: 3, background: { r: 250, g: 240, b: 230 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Snap 9', Copyright: 'Ada' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 20, b: 30 } } })
    .png()
    .toBuffer();

type Receipt = {
  expenseId: string;
  mediaType: string;
  bytes: number;
  width: number | null;
  height: number | null;
  hasThumbnail: boolean;
  sha256: string;
  url: string;
  thumbnailUrl: string | null;
  urlExpiresAt: string;
};

function receiptSuite(storage: 'directory' | 's3') {
  describe(`receipts (${storage})`, () => {
    let t: TestServer;
    let s3: TestS3Server | undefined;
    let ada: TestUser;
    let bob: TestUser;
    let eve: TestUser;
    let groupId: string;

    beforeAll(async () => {
      s3 = storage === 's3' ? await startS3Server() : undefined;
      t = await startTestServer({
        env: { RECEIPT_LINK_SECRET: LINK_SECRET, RECEIPT_MAX_BYTES: '1048576', ...s3?.env },
      });
      ada = await t.register('Ada');
      bob = await t.register('Bob');
      eve = await t.register('Eve');
      groupId = await t.createGroup(ada, [bob]);
    });
    afterAll(async () => {
      await t.stop();
      await s3?.stop();
    });

    const newExpense = async () =>
      (await postExpense(t, ada, groupId, ada, 1200, [ada, bob])).body.id as string;
    const upload = (user: TestUser, expenseId: string, body: Buffer, type: string, key = newKey()) =>
      t.request
        .put(`/v1/expenses/${expenseId}/receipt`)
        .set(user.auth)
        .set('Content-Type', type)
        .set('Idempotency-Key', key)
        .send(body);
    const removeReceipt = (user: TestUser, expenseId: string, key = newKey()) =>
      t.request.delete(`/v1/expenses/${expenseId}/receipt`).set(user.auth).set('Idempotency-Key', key);
    const download = (url: string) =>
      t.request
        .get(url)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
    const receiptEvents = async (expenseId: string) =>
      (
        (await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth)).body.data as {
          type: string;
          data: { expenseId: string; receipt: unknown };
        }[]
      ).filter((e) => e.type === 'expense.receipt_changed' && e.data.expenseId === expenseId);

    it('re-encodes a JPEG without its EXIF (location included), makes a thumbnail, and serves both by signed link', async () => {
      const expenseId = await newExpense();
      const original = await jpegWithLocation();
      expect((await sharp(original).metadata()).exif).toBeDefined();
      const put = await upload(bob, expenseId, original, 'image/jpeg');
      expect(put.status).toBe(200);
      const receipt = put.body as Receipt;
      expect(receipt).toMatchObject({
        expenseId,
        mediaType: 'image/jpeg',
        width: 120,
        height: 80,
        hasThumbnail: true,
      });
      expect(receipt.url).toMatch(/^\/v1\/receipt-files\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

      const file = await download(receipt.url);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('image/jpeg');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      const stored = file.body as Buffer;
      expect(stored.length).toBe(receipt.bytes);
      const meta = await sharp(stored).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(stored.includes(Buffer.from('PhoneCo'))).toBe(false);

      const thumbnail = await download(receipt.thumbnailUrl as string);
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers['content-type']).toBe('image/webp');
      expect((await sharp(thumbnail.body as Buffer).metadata()).width).toBeLessThanOrEqual(320);

      // Any member reads it (fresh links); the event carries the receipt without links.
      const read = await t.request.get(`/v1/expenses/${expenseId}/receipt`).set(ada.auth);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ sha256: receipt.sha256, uploadedBy: bob.id });
      const events = await receiptEvents(expenseId);
      expect(events).toHaveLength(1);
      expect(events[0]?.data.receipt).toMatchObject({ sha256: receipt.sha256, mediaType: 'image/jpeg' });
      expect(events[0]?.data.receipt).not.toHaveProperty('url');
    });

    it('believes the bytes, not the Content-Type, and refuses what is none of the five formats', async () => {
      const expenseId = await newExpense();
      const put = await upload(ada, expenseId, await png(40, 30), 'image/jpeg');
      expect(put.status).toBe(200);
      expect(put.body.mediaType).toBe('image/png');
      expectProblem(
        await upload(ada, expenseId, Buffer.from('<html>hi</html>'), 'image/png'),
        415,
        'unsupported_media_type',
      );
      expectProblem(
        await upload(ada, expenseId, await png(4, 4), 'text/plain'),
        415,
        'unsupported_media_type',
      );
      const unkeyed = t.request
        .put(`/v1/expenses/${expenseId}/receipt`)
        .set(ada.auth)
        .set('Content-Type', 'image/png');
      expectProblem(await unkeyed.send(await png(4, 4)), 400, 'idempotency_key_missing');
      // An AVIF is a HEIF but not a HEIC: refused.
      const avif = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
        .avif()
        .toBuffer();
      expectProblem(await upload(ada, expenseId, avif, 'image/heic'), 415, 'unsupported_media_type');
      // A JPEG's first bytes and then nothing decodable.
      const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
      expectProblem(await upload(ada, expenseId, broken, 'image/jpeg'), 422, 'receipt_unreadable');
      // The receipt is still the PNG: nothing refused changed it.
      expect((await t.request.get(`/v1/expenses/${expenseId}/receipt`).set(ada.auth)).body.sha256).toBe(
        put.body.sha256,
      );
    });

    it('decodes a HEIC and stores it as a JPEG; keeps a PDF as it is, without a thumbnail', async () => {
      const expenseId = await newExpense();
      const heic = await upload(ada, expenseId, HEIC, 'image/heic');
      expect(heic.status).toBe(200);
      expect(heic.body).toMatchObject({ mediaType: 'image/jpeg', width: 64, height: 48, hasThumbnail: true });
      expect((await sharp((await download(heic.body.url)).body as Buffer).metadata()).format).toBe('jpeg');

      const pdf = await upload(ada, expenseId, PDF, 'application/pdf');
      expect(pdf.status).toBe(200);
      expect(pdf.body).toMatchObject({
        mediaType: 'application/pdf',
        bytes: PDF.length,
        width: null,
        hasThumbnail: false,
      });
      expect(pdf.body.thumbnailUrl).toBeNull();
      const file = await download(pdf.body.url);
      expect((file.body as Buffer).equals(PDF)).toBe(true);
      expect(file.headers['content-disposition']).toMatch(/^attachment/);
      // The HEIC's JPEG was replaced: its link finds nothing now.
      await until(async () => (await download(heic.body.url)).status === 404, 'the replaced file is deleted');
    });

    it('refuses an upload over RECEIPT_MAX_BYTES with 413 and an image over the pixel bound with 422', async () => {
      const expenseId = await newExpense();
      const big = Buffer.concat([PDF, Buffer.alloc(1048576)]);
      const res = await upload(ada, expenseId, big, 'application/pdf');
      expectProblem(res, 413, 'payload_too_large');
      expect(res.body.limit).toEqual({ name: 'receiptBytes', max: 1048576 });
      const huge = await png(8000, 5001);
      const refused = await upload(ada, expenseId, huge, 'image/png');
      expectProblem(refused, 422, 'limit_exceeded');
      expect(refused.body.limit).toEqual({ name: 'receiptPixels', max: 40_000_000 });
      expectProblem(await t.request.get(`/v1/expenses/${expenseId}/receipt`).set(ada.auth), 404, 'not_found');
    });

    it('is for members only: a non-member gets 404, and links that are forged or expired do not open', async () => {
      const expenseId = await newExpense();
      expectProblem(await upload(eve, expenseId, await png(4, 4), 'image/png'), 404, 'not_found');
      const put = await upload(ada, expenseId, await png(4, 4), 'image/png');
      expectProblem(await t.request.get(`/v1/expenses/${expenseId}/receipt`).set(eve.auth), 404, 'not_found');
      expectProblem(await removeReceipt(eve, expenseId), 404, 'not_found');

      const url = put.body.url as string;
      const [payload, signature] = url.slice('/v1/receipt-files/'.length).split('.') as [string, string];
      const forged = `${Buffer.from(`${expenseId}/${'0'.repeat(64)}.png\n9999999999`).toString('base64url')}.${signature}`;
      expectProblem(await t.request.get(`/v1/receipt-files/${forged}`), 404, 'not_found');
      expectProblem(await t.request.get(`/v1/receipt-files/${payload}.AAAA`), 404, 'not_found');
      expectProblem(await t.request.get('/v1/receipt-files/nonsense'), 404, 'not_found');
      const key = Buffer.from(payload, 'base64url').toString('utf8').split('\n')[0] as string;
      const past = createReceiptLinks({ secret: LINK_SECRET, now: () => Date.now() - 3_600_000 });
      expectProblem(await t.request.get(past.linkTo(key).url), 403, 'forbidden');
      // Signed with another secret: forged.
      const other = createReceiptLinks({ secret: `${LINK_SECRET}-other` });
      expectProblem(await t.request.get(other.linkTo(key).url), 404, 'not_found');
    });

    it('answers a retried PUT once and stores once; the same key with another file is refused', async () => {
      const expenseId = await newExpense();
      const file = await png(30, 20);
      const key = newKey();
      const first = await upload(ada, expenseId, file, 'image/png', key);
      const again = await upload(ada, expenseId, file, 'image/png', key);
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await receiptEvents(expenseId)).toHaveLength(1);
      expectProblem(
        await upload(ada, expenseId, await png(31, 20), 'image/png', key),
        409,
        'idempotency_key_reused',
      );
      // The same file again, another key, is the same stored file (named by its hash).
      const third = await upload(ada, expenseId, file, 'image/png');
      expect(third.body.sha256).toBe(first.body.sha256);
      expect((await download(first.body.url)).status).toBe(200);
    });

    it('DELETE removes the receipt and its files with one event; an expense’s deletion takes its files', async () => {
      const expenseId = await newExpense();
      const put = await upload(ada, expenseId, await png(10, 10), 'image/png');
      const gone = await removeReceipt(bob, expenseId);
      expect(gone.status).toBe(204);
      expect((await removeReceipt(bob, expenseId)).status).toBe(204);
      expect((await receiptEvents(expenseId)).map((e) => e.data.receipt)).toEqual([expect.any(Object), null]);
      await until(
        async () => (await download(put.body.url)).status === 404,
        'the deleted receipt’s file is gone',
      );

      const other = await newExpense();
      const second = await upload(ada, other, await jpegWithLocation(), 'image/jpeg');
      const deleted = await t.request
        .delete(`/v1/expenses/${other}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(deleted.status).toBe(204);
      await until(async () => (await download(second.body.url)).status === 404, 'the expense’s file is gone');
      await until(async () => (await download(second.body.thumbnailUrl)).status === 404, 'and its thumbnail');
      // Restored, the expense has no receipt.
      await t.request.post(`/v1/expenses/${other}/restore`).set(ada.auth).set('Idempotency-Key', newKey());
      expectProblem(await t.request.get(`/v1/expenses/${other}/receipt`).set(ada.auth), 404, 'not_found');
    });

    it('the account export links each receipt; deleting the account deletes the receipts it uploaded', async () => {
      const dan = await t.register('Dan');
      const danGroup = await t.createGroup(dan, [ada]);
      const expense = await postExpense(t, dan, danGroup, dan, 500, [dan]);
      const put = await upload(dan, expense.body.id, await png(12, 12), 'image/png');
      const exported = await t.request.get('/v1/me/export').set(dan.auth);
      expect(exported.status).toBe(200);
      const doc = JSON.parse(exported.text) as {
        groups: { expenses: { id: string; receipt?: Receipt }[] }[];
      };
      const listed = doc.groups.flatMap((g) => g.expenses).find((e) => e.id === expense.body.id);
      expect(listed?.receipt).toMatchObject({ sha256: put.body.sha256, mediaType: 'image/png' });
      expect(Date.parse(listed?.receipt?.urlExpiresAt as string) - Date.now()).toBeGreaterThan(
        23 * 3600 * 1000,
      );
      expect((await download(listed?.receipt?.url as string)).status).toBe(200);

      const deleted = await t.request.delete('/v1/me').set(dan.auth).set('Idempotency-Key', newKey());
      expect(deleted.status).toBe(204);
      expectProblem(
        await t.request.get(`/v1/expenses/${expense.body.id}/receipt`).set(ada.auth),
        404,
        'not_found',
      );
      await until(
        async () => (await download(put.body.url)).status === 404,
        'the deleted account’s file is gone',
      );
    });
  });
}

receiptSuite('directory');
receiptSuite('s3');

describe('receipts: random bytes', () => {
  let t: TestServer;
  let ada: TestUser;
  let expenseId: string;

  beforeAll(async () => {
    t = await startTestServer({ env: { RECEIPT_MAX_BYTES: '65536' } });
    ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    expenseId = (await postExpense(t, ada, groupId, ada, 100, [ada])).body.id;
  });
  afterAll(async () => {
    await t.stop();
  });

  // The five formats' first bytes, so that random files get past the sniffing into the decoders.
  const PREFIXES = [
    [0xff, 0xd8, 0xff],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP')],
    [0, 0, 0, 0x18, ...Buffer.from('ftypheic'), 0, 0, 0, 0, ...Buffer.from('mif1heic')],
    [...Buffer.from('%PDF-')],
    [],
  ];

  it('never answers 5xx, always a problem or a receipt, whatever the bytes', async () => {
    const seed = testSeed();
    await withSeed(seed, (s) =>
      fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PREFIXES),
          fc.uint8Array({ maxLength: 2048 }),
          fc.constantFrom('image/jpeg', 'image/heic', 'application/octet-stream', 'application/json'),
          async (prefix, tail, type) => {
            const res = await t.request
              .put(`/v1/expenses/${expenseId}/receipt`)
              .set(ada.auth)
              .set('Idempotency-Key', newKey())
              .set('Content-Type', type)
              .send(Buffer.concat([Buffer.from(prefix), Buffer.from(tail)]));
            expect([200, 415, 422]).toContain(res.status);
            if (res.status !== 200)
              expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          },
        ),
        { numRuns: 40, seed: s },
      ),
    );
  });
});
