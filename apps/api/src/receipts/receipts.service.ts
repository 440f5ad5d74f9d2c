import { sql } from '@tally/db';
import { notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import type { WriteContext, WriteResult } from '../ledger/write-runner';
import { openExisting } from '../open-record';
import { createRunRead, named, readNamed } from '../read-queries';
import type { ProcessedReceipt } from './process-receipt';
import type { ReceiptLinks } from './receipt-links';
import { deletePrefix, type ReceiptStorage } from './receipt-storage';

/** A receipt as the API shows it (API.md §16), without its links. */
export type Receipt = {
  expenseId: string;
  mediaType: ProcessedReceipt['mediaType'];
  /** The stored file's size in bytes. */
  bytes: number;
  width: number | null;
  height: number | null;
  hasThumbnail: boolean;
  /** SHA-256 (hex) of the stored file. */
  sha256: string;
  uploadedBy: string;
  uploadedAt: string;
};

/** A receipt with its short-lived download links. */
export type ReceiptWithLinks = Receipt & { url: string; thumbnailUrl: string | null; urlExpiresAt: string };

/** What a PUT writes: the stored file's description (the bytes are in the storage already). */
export type ReceiptUpload = Omit<ProcessedReceipt, 'bytes' | 'thumbnail' | 'uploadedAs'> & {
  /** SHA-256 of the upload as sent: the request's fingerprint (API.md §7). */
  uploadSha256: string;
  size: number;
  hasThumbnail: boolean;
};

export type ReceiptRow = {
  expense_id: string;
  group_id: string;
  sha256: string;
  media_type: Receipt['mediaType'];
  bytes: number;
  width: number | null;
  height: number | null;
  has_thumbnail: boolean;
  uploaded_by: string;
  uploaded_at: Date | string;
};

const EXTENSIONS: Record<Receipt['mediaType'], string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/** The storage keys of an expense's receipt: `{expenseId}/{sha256}.{ext}` and its thumbnail. */
export const receiptKeys = (expenseId: string, sha256: string, mediaType: Receipt['mediaType']) => ({
  file: `${expenseId}/${sha256}.${EXTENSIONS[mediaType]}`,
  thumbnail: `${expenseId}/${sha256}.thumb.webp`,
});

export const toReceipt = (row: ReceiptRow): Receipt => ({
  expenseId: row.expense_id,
  mediaType: row.media_type,
  bytes: Number(row.bytes),
  width: row.width === null ? null : Number(row.width),
  height: row.height === null ? null : Number(row.height),
  hasThumbnail: row.has_thumbnail,
  sha256: row.sha256,
  uploadedBy: row.uploaded_by,
  uploadedAt: toIso(row.uploaded_at),
});

/** The receipt with links good for `ttlSeconds` (the links' own TTL by default). */
export function withLinks(receipt: Receipt, links: ReceiptLinks, ttlSeconds?: number): ReceiptWithLinks {
  const keys = receiptKeys(receipt.expenseId, receipt.sha256, receipt.mediaType);
  const file = links.linkTo(keys.file, ttlSeconds);
  return {
    ...receipt,
    url: file.url,
    thumbnailUrl: receipt.hasThumbnail ? links.linkTo(keys.thumbnail, ttlSeconds).url : null,
    urlExpiresAt: file.expiresAt,
  };
}

const currentReceipt = (expenseId: string) =>
  named('write_receipt_current', sql`select * from receipts where expense_id = ${expenseId}`);

/** One row when the caller can see the live expense (`receipt_*` null when it has no receipt). */
const visibleReceipt = (expenseId: string, userId: string) =>
  named(
    'read_receipt',
    sql`select e.id as visible_id, r.* from expenses e
          left join receipts r on r.expense_id = e.id
         where e.id = ${expenseId} and e.deleted_at is null
           and exists (select 1 from group_members m where m.group_id = e.group_id and m.user_id = ${userId})`,
  );

/**
 * A change of the live expense's group (404 as for the expense), with the expense's receipt now:
 * read on the change's state, so a receipt changed meanwhile makes the write run again.
 */
async function openWithReceipt(ctx: WriteContext, userId: string, expenseId: string) {
  const { change } = await openExisting<{ deleted_at: string | null }>(ctx, 'expenses', expenseId, userId, {
    live: true,
  });
  const [old] = await readNamed<ReceiptRow>(ctx.read, currentReceipt(expenseId));
  return { change, old };
}

/**
 * Receipts on file (API.md §16). The row is the group's: a PUT or DELETE is a change of the
 * expense's group, with an `expense.receipt_changed` event; the files are the storage's.
 */
export function createReceiptsService(deps: {
  knex: Knex;
  storage: ReceiptStorage;
  /** Told about a file that could not be removed (logged; never fails the request). */
  onIgnoredError?: (reason: string, error: unknown) => void;
}) {
  const { storage } = deps;
  const runRead = createRunRead(deps.knex);
  const ignore = (reason: string) => (error: unknown) => deps.onIgnoredError?.(reason, error);

  /** The files of a replaced or deleted receipt, unless the expense's receipt is that file again. */
  async function removeFiles(old: ReceiptRow, keep?: string): Promise<void> {
    if (old.sha256 === keep) return;
    const keys = receiptKeys(old.expense_id, old.sha256, old.media_type);
    await storage.delete(keys.file);
    await storage.delete(keys.thumbnail);
  }

  return {
    storage,

    /** Stores the processed files under the expense (content-addressed: a retry writes the same keys). */
    async storeFiles(expenseId: string, processed: ProcessedReceipt): Promise<void> {
      const keys = receiptKeys(expenseId, processed.sha256, processed.mediaType);
      await storage.put(keys.file, { bytes: processed.bytes, contentType: processed.mediaType });
      if (processed.thumbnail) {
        await storage.put(keys.thumbnail, { bytes: processed.thumbnail, contentType: 'image/webp' });
      }
    },

    /** Sets the expense's receipt (one change of its group, `expense.receipt_changed`). */
    async put(
      ctx: WriteContext,
      userId: string,
      expenseId: string,
      upload: ReceiptUpload,
    ): Promise<WriteResult<{ receipt: Receipt; replaced: ReceiptRow | undefined }>> {
      const { change, old } = await openWithReceipt(ctx, userId, expenseId);
      const now = new Date();
      const receipt: Receipt = {
        expenseId,
        mediaType: upload.mediaType,
        bytes: upload.size,
        width: upload.width,
        height: upload.height,
        hasThumbnail: upload.hasThumbnail,
        sha256: upload.sha256,
        uploadedBy: userId,
        uploadedAt: now.toISOString(),
      };
      change.write(
        sql`insert into receipts (expense_id, group_id, sha256, media_type, bytes, width, height, has_thumbnail, uploaded_by, uploaded_at)
            select ${expenseId}::text, guard.id, ${receipt.sha256}::text, ${receipt.mediaType}::text, ${receipt.bytes}::integer,
                   ${receipt.width}::integer, ${receipt.height}::integer, ${receipt.hasThumbnail}::boolean, ${userId}::text,
                   ${now}::timestamptz from guard
            on conflict (expense_id) do update set sha256 = excluded.sha256, media_type = excluded.media_type,
              bytes = excluded.bytes, width = excluded.width, height = excluded.height,
              has_thumbnail = excluded.has_thumbnail, uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at`,
      );
      const event = change.commit('expense.receipt_changed', userId, { expenseId, receipt }, { at: now });
      return { value: { receipt, replaced: old }, events: [event] };
    },

    /** Removes the expense's receipt; none is `204` again with no event. */
    async remove(
      ctx: WriteContext,
      userId: string,
      expenseId: string,
    ): Promise<WriteResult<ReceiptRow | undefined>> {
      const { change, old } = await openWithReceipt(ctx, userId, expenseId);
      if (!old) return { value: undefined, events: [] };
      const now = new Date();
      change.write(sql`delete from receipts using guard where receipts.expense_id = ${expenseId}::text`);
      const event = change.commit(
        'expense.receipt_changed',
        userId,
        { expenseId, receipt: null },
        { at: now },
      );
      return { value: old, events: [event] };
    },

    /** The receipt of an expense the caller can see: 404 `Expense` or 404 `Receipt`. */
    async get(userId: string, expenseId: string): Promise<Receipt> {
      const [row] = await readNamed<ReceiptRow>(runRead, visibleReceipt(expenseId, userId));
      if (!row) throw notFound('Expense');
      if (row.expense_id === null) throw notFound('Receipt');
      return toReceipt(row);
    },

    /** 404 `Expense` unless the caller can see the live expense. */
    async assertVisible(userId: string, expenseId: string): Promise<void> {
      const rows = await readNamed<ReceiptRow>(runRead, visibleReceipt(expenseId, userId));
      if (rows.length === 0) throw notFound('Expense');
    },

    /** After a replace or delete committed: the old files go (failures logged, never the request's). */
    forgetFiles(old: ReceiptRow | undefined, keep?: string): void {
      if (old) removeFiles(old, keep).catch(ignore('receipt_files_delete'));
    },

    /** Every file stored under an expense (its deletion, API.md §16): in the background. */
    forgetExpense(expenseId: string): void {
      deletePrefix(storage, `${expenseId}/`).catch(ignore('receipt_files_delete'));
    },

    /** The stored file a download link names, or undefined. */
    file: (key: string) => storage.get(key),
  };
}

export type ReceiptsService = ReturnType<typeof createReceiptsService>;
