import type { GroupEvent } from '@tally/events';
import { AppError, limitExceeded } from '@tally/http-kit';
import { fingerprintOf } from '@tally/idempotency';
import { ok } from '../http/reply';
import { bodyOf, param, queryOf, type Route, type RouteInput, route } from '../http/route';
import type { WriteRoutes } from '../http/write-route';
import type { Announcer } from '../ledger/announcer';
import { fileHashOf, type ImportInput, type ImportsService } from './imports.service';
import { checkSplitwiseFile, MalformedFile, OverLimit } from './splitwise-csv';

const USER_ID = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;

/** @default 5 MiB */
export const DEFAULT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** @default 10,000 */
export const DEFAULT_IMPORT_MAX_ROWS = 10_000;

export type ImportRoutesDeps = {
  imports: ImportsService;
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  announcer: Announcer;
  /** The largest import request body (`IMPORT_MAX_BYTES`). @default 5 MiB */
  maxBytes?: number;
  /** The most rows one import may have (`IMPORT_MAX_ROWS`). @default 10,000 */
  maxRows?: number;
};

/**
 * The request on its own: the body, the file (422 naming its first broken line, or
 * `422 limit_exceeded` over a bound), the column mapping. Read in slices (`checkSplitwiseFile`).
 */
async function parseImport(req: RouteInput, maxRows: number): Promise<ImportInput> {
  const body = bodyOf<{ format: 'splitwise-csv'; csv: string; members: Record<string, string> }>(req);
  let file: ImportInput['file'];
  try {
    file = await checkSplitwiseFile(body.csv, { maxRows });
  } catch (error) {
    if (error instanceof OverLimit) throw limitExceeded(error.limit, error.max, error.reason);
    if (!(error instanceof MalformedFile)) throw error;
    throw new AppError(
      'validation_failed',
      422,
      `The file is not a Splitwise export: line ${error.line}: ${error.reason}.`,
      {
        errors: [{ path: 'csv', message: `line ${error.line}: ${error.reason}` }],
      },
    );
  }
  const columns = new Set(file.people);
  const errors = [
    ...Object.entries(body.members)
      .filter(([, id]) => typeof id !== 'string' || !USER_ID.test(id))
      .map(([name]) => ({ path: `members.${name}`, message: 'must be a user id' })),
    ...file.people
      .filter((name) => body.members[name] === undefined)
      .map((name) => ({ path: `members.${name}`, message: `the person column "${name}" needs a member` })),
    ...Object.keys(body.members)
      .filter((name) => !columns.has(name))
      .map((name) => ({ path: `members.${name}`, message: `the file has no person column "${name}"` })),
  ];
  const columnOf = new Map<string, string>();
  for (const name of file.people) {
    const id = body.members[name];
    if (id === undefined) continue;
    if (columnOf.has(id)) {
      errors.push({ path: `members.${name}`, message: 'another person column has the same member' });
    } else columnOf.set(id, name);
  }
  if (errors.length > 0) {
    throw new AppError('validation_failed', 422, 'Every person column needs its own member.', { errors });
  }
  return { groupId: param(req, 'groupId'), ...body, file, fileHash: fileHashOf(body.csv) };
}

/**
 * The request's fingerprint (API.md §7), with the file's text as its SHA-256 (`fileHash`, made once
 * by `parseImport`): the same body is the same fingerprint, and a body of megabytes is not written
 * out again in canonical form and hashed on the event loop (hundreds of ms for 4 MiB).
 */
const importFingerprint = (req: RouteInput, input: ImportInput): string =>
  fingerprintOf(req.method, { ...(req.body as object), csv: `sha256:${input.fileHash}` });

/**
 * Imports (API.md §6b). The POST is a money write with a required key, but not one change: it is
 * many (one per row, each its own statement, each moving the import's `next_line`), so it is the
 * write route's `writeMany`: parse before the key is claimed, claim, the rows, then the report
 * recorded durably by itself (`recordAlone`) and in the store. A crash leaves the key's lease to
 * its dead process; the retry takes it over and the import resumes at `next_line`.
 */
export function importRoutes(deps: ImportRoutesDeps): Route[] {
  const { imports, announcer } = deps;
  const announce = (events: readonly GroupEvent[]) => announcer.announce(events);
  const maxRows = deps.maxRows ?? DEFAULT_IMPORT_MAX_ROWS;

  return [
    deps.routes.writeMany({
      operation: 'createImport',
      maxBodyBytes: deps.maxBytes ?? DEFAULT_IMPORT_MAX_BYTES,
      parse: (req) => parseImport(req, maxRows),
      fingerprint: importFingerprint,
      run: (userId, input) => imports.run(userId, input, announce),
    }),
    route('getImport', async (req) =>
      ok(await imports.get(req.userId, param(req, 'groupId'), param(req, 'importId'))),
    ),
    route('listImportRefusals', async (req) => {
      const query = queryOf<{ limit: number; cursor?: string }>(req);
      return ok(await imports.refusals(req.userId, param(req, 'groupId'), param(req, 'importId'), query));
    }),
  ];
}
