import { createHash } from 'node:crypto';
import { notFound } from '@tally/http-kit';
import { noContent, ok, type Reply } from '../http/reply';
import { param, type Route, type RouteInput, route } from '../http/route';
import { keyOf, type WriteRoutes } from '../http/write-route';
import type { DecodeGate } from './decode-gate';
import { processReceipt } from './process-receipt';
import { DEFAULT_RECEIPT_MAX_BYTES, readUpload } from './read-upload';
import type { ReceiptLinks } from './receipt-links';
import { type ReceiptRow, type ReceiptsService, type ReceiptUpload, withLinks } from './receipts.service';

export type ReceiptRoutesDeps = {
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  receipts: ReceiptsService;
  links: ReceiptLinks;
  gate: DecodeGate;
  /** The largest upload (`RECEIPT_MAX_BYTES`). @default 10 MiB */
  maxBytes?: number;
};

/**
 * Receipts (API.md §16). A PUT runs in this order: the caller must see the expense (`404` before a
 * byte is read), the body is read (`413` past the limit), sniffed (`415`), decoded and re-encoded
 * through the decode gate (`422`, `503`), its files stored by content hash, and only then the write
 * route's steps (key, claim, the group change with `expense.receipt_changed`, reply, announce), with
 * the stored file's description as the request's body: the same file is the same fingerprint. The
 * files a change replaced go after it committed.
 */
export function receiptRoutes(deps: ReceiptRoutesDeps): Route[] {
  const { receipts, links, gate } = deps;
  const maxBytes = deps.maxBytes ?? DEFAULT_RECEIPT_MAX_BYTES;
  // What each request's write replaced, by its input (work runs again on a stale state: the last wins).
  const replaced = new WeakMap<RouteInput, ReceiptRow | undefined>();

  const put = deps.routes.write({
    operation: 'putExpenseReceipt',
    parse: (req) => ({ expenseId: param(req, 'expenseId'), upload: req.body as ReceiptUpload }),
    work: async (ctx, userId, { expenseId, upload }, req) => {
      const result = await receipts.put(ctx, userId, expenseId, upload);
      replaced.set(req, result.value.replaced);
      return result;
    },
    reply: ({ receipt }) => ok(withLinks(receipt, links)),
  });
  const remove = deps.routes.write({
    operation: 'deleteExpenseReceipt',
    parse: (req) => param(req, 'expenseId'),
    work: async (ctx, userId, expenseId, req) => {
      const result = await receipts.remove(ctx, userId, expenseId);
      replaced.set(req, result.value);
      return result;
    },
    reply: (): Reply => noContent(),
  });

  async function putReceipt(req: RouteInput): Promise<Reply> {
    const expenseId = param(req, 'expenseId');
    // A missing or malformed key is refused before the upload is read (the write route checks it again).
    keyOf(req, 'required');
    // An expense the caller cannot see is refused before the upload is read.
    await receipts.assertVisible(req.userId, expenseId);
    const upload = await readUpload(req.res, maxBytes);
    const processed = await processReceipt(upload, gate);
    await receipts.storeFiles(expenseId, processed);
    const body: ReceiptUpload = {
      uploadSha256: createHash('sha256').update(upload).digest('hex'),
      sha256: processed.sha256,
      mediaType: processed.mediaType,
      size: processed.bytes.length,
      width: processed.width,
      height: processed.height,
      hasThumbnail: processed.thumbnail !== undefined,
    };
    // The request's body is the stored file's description from here on (the pipeline's request
    // state holds it, as it holds a JSON body after the body step).
    (req as { body: unknown }).body = body;
    // A write that does not happen leaves its files under the expense: a retry names the same ones,
    // and the expense's deletion takes them all (no file outlives its expense).
    const reply = (await put.handler(req)) as Reply;
    if (reply.status === 200) receipts.forgetFiles(replaced.get(req), processed.sha256);
    return reply;
  }

  return [
    { ...put, handler: putReceipt },
    route('getExpenseReceipt', async (req) =>
      ok(withLinks(await receipts.get(req.userId, param(req, 'expenseId')), links)),
    ),
    {
      ...remove,
      handler: async (req) => {
        const reply = await remove.handler(req);
        if (reply?.status === 204) receipts.forgetFiles(replaced.get(req));
        return reply;
      },
    },
    route('downloadReceiptFile', async (req) => {
      const key = links.keyOf(param(req, 'token'));
      const file = await receipts.file(key);
      if (!file) throw notFound('Receipt file');
      const { res } = req;
      res.statusCode = 200;
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Length', String(file.bytes.length));
      // The link's own lifetime: a browser may keep the file as long as the link is good.
      res.setHeader('Cache-Control', `private, max-age=${links.ttlSeconds}`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      res.setHeader(
        'Content-Disposition',
        file.contentType === 'application/pdf' ? 'attachment; filename="receipt.pdf"' : 'inline',
      );
      res.end(req.method === 'HEAD' ? undefined : file.bytes);
      return undefined;
    }),
  ];
}
