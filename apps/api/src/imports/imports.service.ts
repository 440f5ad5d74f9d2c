import { sql } from '@tally/db';
import type { GroupEvent } from '@tally/events';
import { AppError, notFound, validationFailed } from '@tally/http-kit';
import type { Knex } from 'knex';
import type { CategoriesService } from '../categories/categories.service';
import { SPLITWISE_CATEGORIES } from '../categories/default-categories';
import { databaseUnavailable, isUniqueViolation, toIso } from '../db-errors';
import type { ExpensesService } from '../expenses/expenses.service';
import { decodeCursor, pageOf } from '../http/cursor';
import { created, type Reply } from '../http/reply';
import { jsonColumn } from '../json-column';
import type { GroupChange } from '../ledger/group-change';
import type { WriteContext, WriteRunner } from '../ledger/write-runner';
import { createRunRead, named, readNamed } from '../read-queries';
import { seqHeader } from '../read-routing';
import type { SettlementsService } from '../settlements/settlements.service';
import { sha256Hex } from '../sha256';
import { csvRecords, nextTurn } from './csv-records';
import {
  boundReason,
  createSlicer,
  interpretRecord,
  readHeader,
  type SplitwiseFile,
  type SplitwiseRow,
} from './splitwise-csv';

/** An import request, checked on its own (the file is well formed, every column has a member). */
export type ImportInput = {
  groupId: string;
  format: 'splitwise-csv';
  csv: string;
  /** Person column → member id, one per column of `file.people`. */
  members: Record<string, string>;
  file: SplitwiseFile;
  /** SHA-256 of the file's text (UTF-8), hex. */
  fileHash: string;
};

/** A row of the file that was not imported, and why (API.md §6b). */
export type ImportRefusal = { line: number; reason: string };

export type ImportStatus = 'running' | 'completed' | 'failed';

export type ImportReport = {
  id: string;
  groupId: string;
  format: 'splitwise-csv';
  status: ImportStatus;
  rows: number;
  created: number;
  existing: number;
  /** How many rows were refused; `refused` lists the first `REPORT_REFUSALS` of them. */
  refusedCount: number;
  refused: ImportRefusal[];
  /**
   * How Splitwise's category names were mapped (API.md §14): to a default, to one of the group's
   * own (`created` when the import made it), or to none (`categoryId` null: no room left). At most
   * `REPORT_CATEGORIES` names, in the order the file first named them.
   */
  categories: CategoryMapping[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
};

/** One Splitwise category name and the category its expenses were put in. */
export type CategoryMapping = { name: string; categoryId: string | null; created: boolean };

/** The category names a report lists (and the import remembers across a resumed run). */
export const REPORT_CATEGORIES = 100;

type ImportRow = {
  categories?: CategoryMapping[] | string | null;
  id: string;
  group_id: string;
  status: ImportStatus;
  next_line: number;
  rows: number;
  created: number;
  existing: number;
  refused_count: number;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** The refusals a report lists (the first, by line); the rest are paged (`refusals`). */
export const REPORT_REFUSALS = 20;

/**
 * Rows per write slice: read for presence in one query, and (those refused or found present)
 * counted with their refusals in one statement. Each new row is a write of its own, and a slice of
 * its own: the import yields to the event loop after each.
 */
export const WRITE_SLICE = 100;

const toReport = (row: ImportRow, refused: ImportRefusal[]): ImportReport => ({
  id: row.id,
  groupId: row.group_id,
  format: 'splitwise-csv',
  status: row.status,
  rows: row.rows,
  created: row.created,
  existing: row.existing,
  refusedCount: row.refused_count,
  refused,
  categories: row.categories ? jsonColumn(row.categories) : [],
  createdBy: row.created_by,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

export const fileHashOf = sha256Hex;

/** The import of `fileHash` into `groupId`: the same file uploaded again is the same import. */
export const importIdOf = (groupId: string, fileHash: string): string =>
  `imp_${sha256Hex(`${groupId}\n${fileHash}`)}`;

/**
 * A row's record id: its import (the group and the file's hash) and its line, hashed. The group is
 * part of it, so the same file imported into two groups makes two sets of records. `exp_i`/`stl_i`
 * plus 64 hex digits is longer than any id a client may choose (PUT takes at most 64 characters), so
 * no one can take an imported row's id first, and a row imported again (a re-upload, a resumed
 * import) finds its record.
 */
export const rowIdOf = (prefix: 'exp' | 'stl', importId: string, line: number): string =>
  `${prefix}_i${sha256Hex(`${importId}\n${line}`)}`;

/** The named statements of an import (each prepared once per connection). */
const IMPORT_SQL = {
  /** The group's `seq` now, for the answer's `X-Seq`. */
  groupSeq: (groupId: string) =>
    named('import_group_seq', sql`select last_seq from groups where id = ${groupId}::text`),
  /** The progress of rows refused or found present: their refusals stored once, the counts moved. */
  settle: (importId: string, refused: string, next: number, existing: number) =>
    named(
      'import_settle',
      sql`with added as (
            insert into import_refusals (import_id, line, reason)
            select ${importId}::text, r.line, r.reason from jsonb_to_recordset(${refused}::jsonb) as r(line integer, reason text)
            on conflict (import_id, line) do nothing
            returning 1)
          update imports set next_line = greatest(next_line, ${next}::integer), existing = existing + ${existing}::integer,
                 refused_count = refused_count + (select count(*)::integer from added), updated_at = now()
           where id = ${importId}::text`,
    ),
  fail: (importId: string) =>
    named(
      'import_fail',
      sql`update imports set status = 'failed', updated_at = now() where id = ${importId}::text and status = 'running'`,
    ),
  resume: (importId: string) =>
    named(
      'import_resume',
      sql`update imports set status = 'running', updated_at = now() where id = ${importId}::text and status = 'failed'`,
    ),
  read: (importId: string) => named('import_read', sql`select * from imports where id = ${importId}::text`),
  categories: (importId: string, mapping: string) =>
    named(
      'import_categories',
      sql`update imports set categories = ${mapping}::jsonb where id = ${importId}::text`,
    ),
  status: (importId: string) =>
    named('import_status', sql`select status from imports where id = ${importId}::text`),
  firstRefusals: (importId: string, limit: number) =>
    named(
      'import_first_refusals',
      sql`select line, reason from import_refusals where import_id = ${importId}::text order by line limit ${limit}::integer`,
    ),
  visible: (userId: string, importId: string, groupId: string) =>
    named(
      'import_visible',
      sql`select i.* from imports i join group_members m on m.group_id = i.group_id and m.user_id = ${userId}::text
           where i.id = ${importId}::text and i.group_id = ${groupId}::text`,
    ),
  refusalsAfter: (importId: string, after: number, limit: number) =>
    named(
      'import_refusals_after',
      sql`select line, reason from import_refusals where import_id = ${importId}::text and line > ${after}::integer
           order by line limit ${limit}::integer`,
    ),
};

/** The largest line a cursor may name (an `integer` column). */
const MAX_LINE = 2_147_483_647;

/** The line a refusals cursor names (`[line]`, as `pageOf` made it); 422 for any other cursor. */
function lineAfter(cursor: string | undefined): number {
  const key = decodeCursor(cursor, 1);
  if (key === undefined) return 0;
  const [line] = key;
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 1 || line > MAX_LINE) {
    throw validationFailed(
      [{ path: 'cursor', message: 'is not a cursor this API issued' }],
      'The request query is not valid.',
    );
  }
  return line;
}

/**
 * Why a row's write failed, as a refusal of that row, when the failure is the row's own: a `422`
 * of the ledger (a column's member no longer in the group, amounts that do not add up) or a value
 * the database refused (data exceptions, class 22; a check). Undefined for anything else (the
 * caller left the group, the database is away): the import stops there, and a retry resumes.
 */
function refusalOf(error: unknown): string | undefined {
  if (error instanceof AppError) return error.status === 422 ? boundReason(error.message) : undefined;
  if (databaseUnavailable(error)) return undefined;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('22') || code === '23514' || code === '23502')) {
    return 'the row holds a value the ledger cannot store';
  }
  return undefined;
}

export function createImportsService(deps: {
  knex: Knex;
  writes: WriteRunner;
  expenses: ExpensesService;
  settlements: SettlementsService;
  /** Makes the group's own categories for Splitwise names no default takes; absent: defaults only. */
  categories?: CategoriesService;
  /** How the import yields to the event loop between slices. @default `nextTurn` (setImmediate) */
  pause?: () => Promise<void>;
}) {
  const { knex, writes, expenses, settlements } = deps;
  const pause = deps.pause ?? nextTurn;
  const runRead = createRunRead(knex);
  /** Imports running in this process, by id: a second run of the same import waits for the first. */
  const running = new Map<string, Promise<unknown>>();

  /** Runs `work` as one write (one statement); `events` are handed to `announce` at once. */
  async function change(
    work: (ctx: WriteContext) => { events: GroupEvent[] } | Promise<{ events: GroupEvent[] }>,
    announce: (events: readonly GroupEvent[]) => void,
  ): Promise<void> {
    const written = await writes.run({
      work: async (ctx) => ({ value: undefined, events: (await work(ctx)).events }),
      reply: () => ({ status: 200, body: null, headers: {} }),
    });
    announce(written.events);
  }

  async function readRow(importId: string): Promise<ImportRow | undefined> {
    const [row] = await readNamed<ImportRow>(runRead, IMPORT_SQL.read(importId));
    return row;
  }

  async function reportOf(row: ImportRow): Promise<ImportReport> {
    const refused =
      row.refused_count === 0
        ? []
        : await readNamed<ImportRefusal>(runRead, IMPORT_SQL.firstRefusals(row.id, REPORT_REFUSALS));
    return toReport(row, refused);
  }

  /**
   * The import's start: the members are checked against the group (404 for a non-member caller,
   * 422 not_a_member for a column's member). A new import, or a completed one uploaded again
   * (counted afresh: its refusals are cleared, every row is then found present), starts with an
   * `import.started` event, in the same statement as its row. A running or failed one is resumed
   * where it stopped, with no event: its `import.started` is in the log already.
   */
  async function start(userId: string, input: ImportInput, announce: (e: readonly GroupEvent[]) => void) {
    const importId = importIdOf(input.groupId, input.fileHash);
    await change(async (ctx) => {
      const group = await ctx.open(input.groupId, userId);
      group.assertMembers(
        input.file.people.map((name) => ({ userId: input.members[name] as string, path: `members.${name}` })),
      );
      const [existing] = await readNamed<{ status: ImportStatus }>(ctx.read, IMPORT_SQL.status(importId));
      if (existing && existing.status !== 'completed') return { events: [] };
      group.write(sql`insert into imports (id, group_id, file_hash, format, status, next_line, rows, created_by, created_at, updated_at)
        select ${importId}::text, guard.id, ${input.fileHash}::text, ${input.format}::text, 'running', 2,
               ${input.file.rows}::integer, ${userId}::text, now(), now() from guard
        on conflict (id) do update set status = 'running', next_line = 2, created = 0, existing = 0,
               refused_count = 0, created_by = excluded.created_by, updated_at = now()
         where imports.status = 'completed'`);
      if (existing) {
        group.write(
          sql`delete from import_refusals using guard where import_refusals.import_id = ${importId}::text`,
        );
      }
      const event = group.commit('import.started', userId, {
        import: { id: importId, format: input.format, rows: input.file.rows },
      });
      return { events: [event] };
    }, announce);
    await readNamed(runRead, IMPORT_SQL.resume(importId));
    return importId;
  }

  /**
   * The category of each Splitwise name (case ignored): a default by `SPLITWISE_CATEGORIES`, else
   * the group's own of that name, else one the import creates (a `category.created` write of its
   * own) while the group has room; else none. Remembered in the import's row, so a resumed run maps
   * as the first did.
   */
  async function categoryMapper(
    importId: string,
    userId: string,
    groupId: string,
    announce: (e: readonly GroupEvent[]) => void,
  ) {
    const [row] = await readNamed<ImportRow>(runRead, IMPORT_SQL.read(importId));
    const listed: CategoryMapping[] = row?.categories ? jsonColumn(row.categories) : [];
    const mapped = new Map<string, string | null>(listed.map((m) => [m.name.toLowerCase(), m.categoryId]));
    let own: Map<string, string> | undefined;
    return async (name: string | null): Promise<string | null> => {
      if (name === null) return null;
      const key = name.toLowerCase();
      const known = mapped.get(key);
      if (known !== undefined) return known;
      let categoryId: string | null = SPLITWISE_CATEGORIES[key] ?? null;
      let created = false;
      if (categoryId === null && deps.categories) {
        own ??= new Map(
          (await deps.categories.list(userId, groupId)).data
            .filter((c) => !c.default)
            .map((c) => [c.name.toLowerCase(), c.id]),
        );
        categoryId = own.get(key) ?? null;
        if (categoryId === null) {
          const { categories } = deps;
          let made: string | null = null;
          try {
            await change(async (ctx) => {
              const result = await categories.create(ctx, userId, groupId, {
                name: [...name].slice(0, 40).join(''),
              });
              made = result.value.id;
              return result;
            }, announce);
          } catch (error) {
            // No room left (`categoriesPerGroup`) or a name a default has: the expenses get none.
            if (!(error instanceof AppError) || error.status >= 500) throw error;
          }
          categoryId = made;
          created = made !== null;
          if (made !== null) own.set(key, made);
        }
      }
      mapped.set(key, categoryId);
      if (listed.length < REPORT_CATEGORIES) {
        listed.push({ name, categoryId, created });
        await readNamed(runRead, IMPORT_SQL.categories(importId, JSON.stringify(listed)));
      }
      return categoryId;
    };
  }

  /** The row's expense or settlement, staged on `group`. */
  function stageRow(
    group: GroupChange,
    userId: string,
    input: ImportInput,
    row: SplitwiseRow & { kind: 'expense' | 'settlement' },
    categoryId: string | null,
  ) {
    const member = (column: number) => input.members[input.file.people[column] as string] as string;
    if (row.kind === 'settlement') {
      return settlements.createImported(group, {
        id: rowIdOf('stl', importIdOf(input.groupId, input.fileHash), row.line),
        groupId: input.groupId,
        fromUserId: member(row.from),
        toUserId: member(row.to),
        amount: row.amount,
        currency: row.currency,
        note: row.description,
        createdBy: userId,
        createdAt: new Date().toISOString(),
      });
    }
    return expenses.createImported(
      group,
      userId,
      rowIdOf('exp', importIdOf(input.groupId, input.fileHash), row.line),
      {
        groupId: input.groupId,
        description: row.description,
        category: row.category,
        categoryId,
        amount: row.amount,
        currency: row.currency,
        occurredAt: row.occurredAt,
        paidBy: [...row.paid].map(([column, amount]) => ({ userId: member(column), amount })),
        split: {
          type: 'exact',
          between: [...row.owed].map(([column, amount]) => ({ userId: member(column), amount })),
        },
      },
    );
  }

  const recordIdOf = (importId: string, row: SplitwiseRow) =>
    row.kind === 'settlement' ? rowIdOf('stl', importId, row.line) : rowIdOf('exp', importId, row.line);

  async function present(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await knex.raw<{ rows: { id: string }[] }>(
      'select id from expenses where id = any(?) union all select id from settlements where id = any(?)',
      [ids, ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The rows from `nextLine` on, in slices of `WRITE_SLICE` rows: the rows of a slice already
   * present (a re-upload, or rows a crashed run wrote) are read in one query, and counted with the
   * refused ones (their refusals inserted once each) in one statement that moves `next_line`; each
   * new row is one change whose statement also moves `next_line` past it, and a row whose write the
   * ledger or the database refuses is refused like the others. So a crash at any point leaves
   * `next_line` on the first row not yet done. The import yields to the event loop after each
   * slice, after each new row, and while it reads the file (`createSlicer`).
   */
  async function importRows(
    importId: string,
    userId: string,
    input: ImportInput,
    nextLine: number,
    announce: (e: readonly GroupEvent[]) => void,
  ) {
    const { people } = input.file;
    const limits = { maxFields: Number.POSITIVE_INFINITY };
    const records = csvRecords(input.csv, limits);
    readHeader(records, limits);
    const endOfSlice = createSlicer(pause);
    const categoryOf = await categoryMapper(importId, userId, input.groupId, announce);
    let batch: SplitwiseRow[] = [];
    const flushBatch = async () => {
      const ids = batch
        .filter((r) => r.kind === 'expense' || r.kind === 'settlement')
        .map((r) => recordIdOf(importId, r));
      const found = await present(ids);
      let pending = { existing: 0, refused: [] as ImportRefusal[] };
      const settle = async (next: number) => {
        if (pending.existing === 0 && pending.refused.length === 0) return;
        await readNamed(
          runRead,
          IMPORT_SQL.settle(importId, JSON.stringify(pending.refused), next, pending.existing),
        );
        pending = { existing: 0, refused: [] };
      };
      for (const row of batch) {
        if (row.kind === 'refused') pending.refused.push({ line: row.line, reason: row.reason });
        else if (row.kind === 'total') {
          if (input.file.totalMismatch)
            pending.refused.push({ line: row.line, reason: input.file.totalMismatch });
        } else if (row.kind === 'expense' || row.kind === 'settlement') {
          if (found.has(recordIdOf(importId, row))) {
            pending.existing++;
            continue;
          }
          await settle(row.line);
          const categoryId = row.kind === 'expense' ? await categoryOf(row.category) : null;
          try {
            await change(async (ctx) => {
              const group = await ctx.open(input.groupId, userId);
              const { events } = stageRow(group, userId, input, row, categoryId);
              group.write(sql`update imports set next_line = greatest(next_line, ${row.line + 1}::integer),
                                     created = created + 1, updated_at = now()
                                from guard where imports.id = ${importId}::text`);
              return { events };
            }, announce);
          } catch (error) {
            // Another run of the same file (another process) created it first: it is present.
            if (isUniqueViolation(error)) pending.existing++;
            else {
              const reason = refusalOf(error);
              if (reason === undefined) throw error;
              pending.refused.push({ line: row.line, reason });
            }
          }
          await pause();
        }
      }
      const last = batch[batch.length - 1];
      if (last) await settle(last.line + 1);
      batch = [];
      await pause();
    };
    for (const record of records) {
      await endOfSlice(record);
      if (record.line < nextLine) continue;
      const row = interpretRecord(record, people);
      if (row.kind === 'blank') continue;
      batch.push(row);
      if (batch.length >= WRITE_SLICE) await flushBatch();
    }
    await flushBatch();
  }

  /** The import's end, as a change (`import.completed` with the report's counts); the report after it. */
  async function complete(
    importId: string,
    userId: string,
    groupId: string,
    announce: (e: readonly GroupEvent[]) => void,
  ) {
    const row = await readRow(importId);
    if (!row) throw new Error('the import vanished');
    if (row.status !== 'completed') {
      await change(async (ctx) => {
        const group = await ctx.open(groupId, userId);
        group.write(
          sql`update imports set status = 'completed', updated_at = now() from guard where imports.id = ${importId}::text`,
        );
        // The report's counts, without its refusals (the report lists them).
        const { refused: _refused, categories: _categories, ...summary } = toReport(row, []);
        const data = { import: { ...summary, status: 'completed' } };
        return { events: [group.commit('import.completed', userId, data)] };
      }, announce);
    }
    return reportOf((await readRow(importId)) as ImportRow);
  }

  return {
    /**
     * Runs the import to its end (or resumes it), and answers its report: `201`. A run that stops
     * on an error it cannot refuse as a row leaves the import `failed` (a retry resumes it) and
     * throws that error.
     */
    async run(
      userId: string,
      input: ImportInput,
      announce: (e: readonly GroupEvent[]) => void,
    ): Promise<Reply> {
      const importId = importIdOf(input.groupId, input.fileHash);
      const before = running.get(importId);
      const mine = (async () => {
        await before?.catch(() => {});
        await start(userId, input, announce);
        try {
          const row = await readRow(importId);
          if (!row) throw new Error('the import vanished');
          await importRows(importId, userId, input, row.next_line, announce);
          return await complete(importId, userId, input.groupId, announce);
        } catch (error) {
          await readNamed(runRead, IMPORT_SQL.fail(importId)).catch(() => {});
          throw error;
        }
      })();
      running.set(importId, mine);
      try {
        const report = await mine;
        // The group's seq once the import is in (its `import.completed` or later): reads naming it
        // in `X-Min-Seq` see every row (read-routing.ts).
        const [group] = await readNamed<{ last_seq: string }>(runRead, IMPORT_SQL.groupSeq(input.groupId));
        return created(report, {
          Location: `/v1/groups/${input.groupId}/imports/${importId}`,
          ...(group ? seqHeader(input.groupId, Number(group.last_seq)) : {}),
        });
      } finally {
        if (running.get(importId) === mine) running.delete(importId);
      }
    },

    /** The report of an import of `groupId`, for a member of it; 404 otherwise. */
    async get(userId: string, groupId: string, importId: string): Promise<ImportReport> {
      const [row] = await readNamed<ImportRow>(runRead, IMPORT_SQL.visible(userId, importId, groupId));
      if (!row) throw notFound('Import');
      return reportOf(row);
    },

    /** The import's refused rows by line, one page (API.md §1 lists), for a member; 404 otherwise. */
    async refusals(
      userId: string,
      groupId: string,
      importId: string,
      query: { limit: number; cursor?: string },
    ): Promise<{ data: ImportRefusal[]; nextCursor: string | null }> {
      const after = lineAfter(query.cursor);
      const [row] = await readNamed<ImportRow>(runRead, IMPORT_SQL.visible(userId, importId, groupId));
      if (!row) throw notFound('Import');
      const rows = await readNamed<ImportRefusal>(
        runRead,
        IMPORT_SQL.refusalsAfter(importId, after, query.limit + 1),
      );
      return pageOf(rows, query.limit, (r) => [r.line]);
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
