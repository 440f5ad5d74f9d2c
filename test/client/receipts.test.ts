import { NotFoundError, type TallyClient, UnsupportedMediaTypeError } from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** The smallest PNG (1×1). */
const ONE_PIXEL_PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** Receipts (API.md §16) through the SDK, against a real server: bytes and a Blob, links, removal. */
describe('receipts through the SDK', () => {
  let t: TestServer;
  let ada: TallyClient;

  beforeAll(async () => {
    t = await startTestServer();
    ada = quickClient(t.url);
    await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('uploads bytes and a Blob, downloads through the signed link, and removes the receipt', async () => {
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Receipts' });
    const expense = await ada.expenses.create({
      groupId: group.id,
      description: 'Lunch',
      amount: 1500,
      paidBy: me.id,
      split: { type: 'equal', between: [me.id] },
    });
    const fromBytes = await ada.receipts.upload(expense.id, {
      bytes: ONE_PIXEL_PNG,
      contentType: 'image/png',
    });
    expect(fromBytes).toMatchObject({ expenseId: expense.id, mediaType: 'image/png', width: 1, height: 1 });
    const fromBlob = await ada.receipts.upload(expense.id, new Blob([ONE_PIXEL_PNG], { type: 'image/png' }));
    expect(fromBlob.sha256).toBe(fromBytes.sha256);

    const read = await ada.receipts.get(expense.id);
    const file = await fetch(ada.receipts.fileUrl(read.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect((await file.arrayBuffer()).byteLength).toBe(read.bytes);

    const refused = await rejection(
      ada.receipts.upload(expense.id, {
        bytes: new TextEncoder().encode('not a picture'),
        contentType: 'image/png',
      }),
    );
    expect(refused).toBeInstanceOf(UnsupportedMediaTypeError);

    await ada.receipts.delete(expense.id);
    expect(await rejection(ada.receipts.get(expense.id))).toBeInstanceOf(NotFoundError);
  });
});
