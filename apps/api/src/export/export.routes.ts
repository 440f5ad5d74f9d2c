import type { ServerResponse } from 'node:http';
import { AppError, notFound } from '@tally/http-kit';
import type { Logger } from 'pino';
import type { AccountDeletion } from '../account/account-deletion';
import { EXPORTS_PER_USER } from '../bounds';
import { noContent } from '../http/reply';
import { type Route, route } from '../http/route';
import type { ReadRouting } from '../read-routing';
import type { ReceiptLinks } from '../receipts/receipt-links';
import { createGroupCsvExport } from './group-csv';
import { writeMyData } from './my-data';

export type ExportDeps = {
  logger: Logger;
  accounts: AccountDeletion;
  /** Signs the receipt links the account export carries (API.md §11.2, §16). */
  receiptLinks?: ReceiptLinks;
  /** Where the downloads read (read-routing.ts). */
  reads: ReadRouting;
};

/** A file name a `Content-Disposition` header can carry as it is: ASCII letters, digits, `-` and `_`. */
const safeFileName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'group';

/**
 * Counts each user's downloads in flight: one more than `EXPORTS_PER_USER` is `429 rate_limited`
 * (`limit.name` `exportsPerUser`), before anything is read. A download counts until its response
 * closes (sent, or the client went away).
 */
function createExportSlots() {
  const inFlight = new Map<string, number>();
  return (userId: string, res: ServerResponse): void => {
    const count = inFlight.get(userId) ?? 0;
    if (count >= EXPORTS_PER_USER) {
      throw new AppError(
        'rate_limited',
        429,
        `You have ${count} downloads running; wait for one to finish (at most ${EXPORTS_PER_USER} at once: \`exportsPerUser\`).`,
        {
          headers: {
            'Retry-After': '5',
            'RateLimit-Limit': String(EXPORTS_PER_USER),
            'RateLimit-Remaining': '0',
            'RateLimit-Reset': '5',
          },
          limit: { name: 'exportsPerUser', max: EXPORTS_PER_USER },
        },
      );
    }
    inFlight.set(userId, count + 1);
    res.once('close', () => {
      const left = (inFlight.get(userId) ?? 1) - 1;
      if (left > 0) inFlight.set(userId, left);
      else inFlight.delete(userId);
    });
  };
}

/**
 * Once the first byte is out the status is sent: an error then cannot become a problem+json. The
 * response is destroyed instead (no final chunk), so the client sees a broken download, never a
 * short file that looks complete (API.md §11).
 */
async function streamed(res: ServerResponse, logger: Logger, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
    if (!res.destroyed) res.end();
  } catch (error) {
    // Nothing sent yet: still an ordinary problem+json.
    if (!res.headersSent) throw error;
    logger.error({ err: error }, 'export failed after the response started; connection closed');
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * CSV of a group, the caller's data, and the deletion of their account (API.md §11). The downloads
 * write the response themselves (a stream): their handlers answer nothing.
 */
export function exportRoutes(deps: ExportDeps): Route[] {
  const takeExportSlot = createExportSlots();

  return [
    route('exportGroupCsv', async (req) => {
      const { res, userId } = req;
      const groupId = req.params['groupId'];
      if (typeof groupId !== 'string' || groupId.includes('\u0000')) throw notFound('Group');
      takeExportSlot(userId, res);
      const started = () => res.headersSent;
      await deps.reads.run(
        req.headers,
        async (db) => {
          const csv = createGroupCsvExport({ knex: db });
          // Checked before the first byte: a stranger or a missing group is still a 404 problem+json.
          const prepared = await csv.prepare(userId, groupId);
          res.statusCode = 200;
          res.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
          res.setHeader(
            'Content-Disposition',
            `attachment; filename="${safeFileName(prepared.group.name)}-${prepared.group.id}.csv"`,
          );
          await streamed(res, deps.logger, () => csv.write(res, groupId, prepared));
        },
        { started },
      );
      return undefined;
    }),
    route('exportMyData', async ({ res, userId, headers }) => {
      takeExportSlot(userId, res);
      await deps.reads.run(
        headers,
        async (db) => {
          res.statusCode = 200;
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.setHeader('Content-Disposition', 'attachment; filename="tally-my-data.json"');
          await streamed(res, deps.logger, () => writeMyData(db, res, userId, deps.receiptLinks));
        },
        { started: () => res.headersSent },
      );
      return undefined;
    }),
    route('deleteMe', async (req) => {
      await deps.accounts.deleteAccount(req.userId);
      return noContent();
    }),
  ];
}
