import { notFound } from '@tally/http-kit';
import { type Request, type Response, Router } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { AccountDeletion } from '../account/account-deletion';
import { userIdOf } from '../auth/authenticate';
import { createGroupCsvExport } from './group-csv';
import { writeMyData } from './my-data';

export type ExportDeps = { knex: Knex; logger: Logger; accounts: AccountDeletion };

/** A file name a `Content-Disposition` header can carry as it is: ASCII letters, digits, `-` and `_`. */
const safeFileName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'group';

/**
 * Once the first byte is out the status is sent: an error then cannot become a problem+json. The
 * response is destroyed instead (no final chunk), so the client sees a broken download, never a
 * short file that looks complete (API.md §11).
 */
async function streamed(res: Response, logger: Logger, write: () => Promise<unknown>): Promise<void> {
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

/** CSV of a group, the caller's data, and the deletion of their account (API.md §11). */
export function exportRoutes(deps: ExportDeps): Router {
  const router = Router();
  const csv = createGroupCsvExport({ knex: deps.knex });

  router.get('/groups/:groupId/export.csv', async (req: Request, res: Response) => {
    const groupId = req.params['groupId'];
    if (typeof groupId !== 'string' || groupId.includes('\u0000')) throw notFound('Group');
    // Checked before the first byte: a stranger or a missing group is still a 404 problem+json.
    const prepared = await csv.prepare(userIdOf(res), groupId);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${safeFileName(prepared.group.name)}-${prepared.group.id}.csv"`,
    );
    await streamed(res, deps.logger, () => csv.write(res, groupId, prepared));
  });

  router.get('/me/export', async (_req: Request, res: Response) => {
    const userId = userIdOf(res);
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="tally-my-data.json"');
    await streamed(res, deps.logger, () => writeMyData(deps.knex, res, userId));
  });

  router.delete('/me', async (_req: Request, res: Response) => {
    await deps.accounts.deleteAccount(userIdOf(res));
    res.status(204).end();
  });

  return router;
}
