import type { GroupEvent } from '@tally/events';
import { AppError, limitExceeded, notFound, PROBLEM_CONTENT_TYPE, toProblem } from '@tally/http-kit';
import {
  fingerprintOf,
  IdempotencyConflict,
  type IdempotencyLayer,
  parseIdempotencyKey,
} from '@tally/idempotency';
import { type Request, type Response, Router } from 'express';
import { userIdOf } from '../auth/authenticate';
import { createJsonBody } from '../http/json-body';
import { ok, type Reply, sendReply } from '../http/reply';
import { requestIdOf } from '../http/request-id';
import { validate } from '../http/validate';
import { canonicalPath, type WriteRouteInfo } from '../http/write-route';
import type { Announcer } from '../ledger/announcer';
import type { WriteRunner } from '../ledger/write-runner';
import { createImportBody, listQuery } from '../schemas';
import { fileHashOf, type ImportInput, type ImportsService } from './imports.service';
import { checkSplitwiseFile, MalformedFile, OverLimit } from './splitwise-csv';

const USER_ID = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;

/** @default 5 MiB */
export const DEFAULT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** @default 10,000 */
export const DEFAULT_IMPORT_MAX_ROWS = 10_000;

export type ImportRoutesDeps = {
  imports: ImportsService;
  writes: WriteRunner;
  announcer: Announcer;
  idempotency?: IdempotencyLayer | undefined;
  /** The largest import request body (`IMPORT_MAX_BYTES`). @default 5 MiB */
  maxBytes?: number;
  /** The most rows one import may have (`IMPORT_MAX_ROWS`). @default 10,000 */
  maxRows?: number;
};

const param = (req: Request, name: string): string => {
  const value = req.params[name];
  if (typeof value !== 'string' || value.includes('\u0000')) throw notFound();
  return value;
};

/**
 * The request on its own: the body, the file (422 naming its first broken line, or
 * `422 limit_exceeded` over a bound), the column mapping. Read in slices (`checkSplitwiseFile`).
 */
async function parseImport(req: Request, maxRows: number): Promise<ImportInput> {
  const body = validate<{ format: 'splitwise-csv'; csv: string; members: Record<string, string> }>(
    createImportBody,
    req.body,
  );
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
const importFingerprint = (req: Request, input: ImportInput): string =>
  fingerprintOf(req.method, { ...(req.body as object), csv: `sha256:${input.fileHash}` });

function keyOf(req: Request): string {
  const parsed = parseIdempotencyKey(req.headers['idempotency-key']);
  if (parsed.ok) return parsed.key;
  if (parsed.reason === 'invalid') {
    throw new AppError(
      'idempotency_key_invalid',
      400,
      'Idempotency-Key must be 1–255 printable ASCII characters.',
    );
  }
  throw new AppError('idempotency_key_missing', 400, 'This money write needs an Idempotency-Key header.');
}

/** The operation's own 4xx (404, 422 not_a_member): recorded and replayed, as any write's (API.md §7). */
function recordableOutcome(error: unknown, requestId: string): Reply | undefined {
  if (!(error instanceof AppError) || error.status < 400 || error.status >= 500) return undefined;
  if (error.status === 401 || error.status === 429 || error.code.startsWith('idempotency_')) return undefined;
  return {
    status: error.status,
    body: toProblem(error, requestId),
    headers: { ...error.headers, 'Content-Type': PROBLEM_CONTENT_TYPE },
  };
}

/**
 * Imports (API.md §6b). The POST is a money write with a required key, but not one change: it is
 * many (one per row, each its own statement, each moving the import's `next_line`), so it runs the
 * write route's steps itself: parse before the key is claimed, claim, the rows, then the report
 * recorded durably by itself (`recordAlone`) and in the store. A crash leaves the key's lease to
 * its dead process; the retry takes it over and the import resumes at `next_line`.
 */
export function importRoutes(deps: ImportRoutesDeps): {
  router: Router;
  writeRoutes: readonly WriteRouteInfo[];
} {
  const { imports, writes, idempotency, announcer } = deps;
  const router = Router();
  const announce = (events: readonly GroupEvent[]) => announcer.announce(events);

  router.post(
    '/groups/:groupId/imports',
    createJsonBody(deps.maxBytes ?? DEFAULT_IMPORT_MAX_BYTES),
    async (req: Request, res: Response) => {
      const key = keyOf(req);
      const input = await parseImport(req, deps.maxRows ?? DEFAULT_IMPORT_MAX_ROWS);
      const userId = userIdOf(res);
      if (!idempotency) {
        sendReply(res, await imports.run(userId, input, announce));
        return;
      }
      try {
        const path = canonicalPath(req);
        const claimed = await idempotency.claim({
          userId,
          key,
          path,
          fingerprint: importFingerprint(req, input),
        });
        if (claimed.replay) {
          sendReply(res, claimed.replay);
          return;
        }
        const { lease } = claimed;
        let reply: Reply;
        try {
          try {
            reply = await imports.run(userId, input, announce);
          } catch (error) {
            const outcome = recordableOutcome(error, requestIdOf(res));
            if (!outcome) throw error;
            reply = outcome;
          }
          if (!(await writes.recordAlone(idempotency.record(lease, reply))))
            reply = await idempotency.replayDurable(lease);
        } catch (error) {
          await idempotency.release(lease);
          throw error;
        }
        await idempotency.complete(lease, reply, () => []);
        sendReply(res, reply);
      } catch (error) {
        if (!(error instanceof IdempotencyConflict)) throw error;
        throw error.kind === 'in_progress'
          ? new AppError('idempotency_key_in_progress', 409, error.message, {
              headers: { 'Retry-After': '1' },
            })
          : new AppError('idempotency_key_reused', 409, error.message);
      }
    },
  );

  router.get('/groups/:groupId/imports/:importId', async (req, res) => {
    sendReply(res, ok(await imports.get(userIdOf(res), param(req, 'groupId'), param(req, 'importId'))));
  });

  router.get('/groups/:groupId/imports/:importId/refusals', async (req, res) => {
    const query = validate<{ limit: number; cursor?: string }>(listQuery, req.query, 'query');
    const page = await imports.refusals(userIdOf(res), param(req, 'groupId'), param(req, 'importId'), query);
    sendReply(res, ok(page));
  });

  return {
    router,
    writeRoutes: [{ method: 'POST', path: '/v1/groups/:groupId/imports', key: 'required' }],
  };
}
