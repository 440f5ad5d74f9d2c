import type { GroupEvent } from '@tally/events';
import { notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { isUniqueViolation, toIso } from '../db-errors';
import type { ExpensesService } from '../expenses/expenses.service';
import { created, type Reply } from '../http/reply';
import type { GroupChange } from '../ledger/group-change';
import { raw, type Sql, sql } from '../ledger/sql';
import type { WriteContext, WriteRunner } from '../ledger/write-runner';
import { createRunRead } from '../read-queries';
import type { SettlementsService } from '../settlements/settlements.service';
import { sha256Hex } from '../sha256';
import { csvRecords, interpretRecord, type SplitwiseFile, type SplitwiseRow } from './splitwise-csv';

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

export type ImportReport = {
  id: string;
  groupId: string;
  format: 'splitwise-csv';
  status: 'running' | 'completed';
  rows: number;
  created: number;
  existing: number;
  refused: { line: number; reason: string }[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
};

type ImportRow = {
  id: string;
  group_id: string;
  status: 'running' | 'completed';
  next_line: number;
  rows: number;
  created: number;
  existing: number;
  refused: { line: number; reason: string }[] | string;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
};

const toReport = (row: ImportRow): ImportReport => ({
  id: row.id,
  groupId: row.group_id,
  format: 'splitwise-csv',
  status: row.status,
  rows: row.rows,
  created: row.created,
  existing: row.existing,
  refused: typeof row.refused === 'string' ? JSON.parse(row.refused) : row.refused,
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

/** Rows whose presence is read in one query before they are written. */
const BATCH = 100;

export function createImportsService(deps: {
  knex: Knex;
  writes: WriteRunner;
  expenses: ExpensesService;
  settlements: SettlementsService;
}) {
  const { knex, writes, expenses, settlements } = deps;
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

  /** Moves the import's `next_line` and counts; in a row's change it takes effect only through `guard`. */
  const progress = (
    importId: string,
    nextLine: number,
    by: { created?: number; existing?: number; refused?: unknown[] },
    through: 'guard' | 'alone',
  ) =>
    sql`update imports set next_line = ${nextLine}::integer, created = created + ${by.created ?? 0}::integer,
               existing = existing + ${by.existing ?? 0}::integer,
               refused = refused || ${JSON.stringify(by.refused ?? [])}::jsonb, updated_at = now()
         ${through === 'guard' ? raw('from guard') : raw('')} where imports.id = ${importId}::text`;

  async function runAlone(statement: Sql): Promise<void> {
    await runRead({ name: 'import_progress', text: statement.text }, [...statement.values]);
  }

  async function readRow(importId: string): Promise<ImportRow | undefined> {
    const { rows } = await knex.raw<{ rows: ImportRow[] }>('select * from imports where id = ?', [importId]);
    return rows[0];
  }

  /**
   * The import's start, as a change of its own (`import.started`): the members are checked against
   * the group (404 for a non-member caller, 422 not_a_member for a column's member), and the import's
   * row is created, or a completed one is counted afresh (an upload of the same file again: every
   * row is then found present), or a running one is left where it stopped (a resumed import).
   */
  async function start(userId: string, input: ImportInput, announce: (e: readonly GroupEvent[]) => void) {
    const importId = importIdOf(input.groupId, input.fileHash);
    await change(async (ctx) => {
      const group = await ctx.open(input.groupId, userId);
      group.assertMembers(
        input.file.people.map((name) => ({ userId: input.members[name] as string, path: `members.${name}` })),
      );
      group.write(sql`insert into imports (id, group_id, file_hash, format, status, next_line, rows, created_by, created_at, updated_at)
        select ${importId}::text, guard.id, ${input.fileHash}::text, ${input.format}::text, 'running', 2,
               ${input.file.rows}::integer, ${userId}::text, now(), now() from guard
        on conflict (id) do update set status = 'running', next_line = 2, created = 0, existing = 0,
               refused = '[]'::jsonb, created_by = excluded.created_by, updated_at = now()
         where imports.status = 'completed'`);
      const event = group.commit('import.started', userId, {
        import: { id: importId, format: input.format, rows: input.file.rows },
      });
      return { events: [event] };
    }, announce);
    return importId;
  }

  /** The row's expense or settlement, staged on `group`. */
  function stageRow(
    group: GroupChange,
    userId: string,
    input: ImportInput,
    row: SplitwiseRow & { kind: 'expense' | 'settlement' },
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
   * The rows from `nextLine` on, in batches: the rows of a batch already present (a re-upload, or
   * rows a crashed run wrote) are read in one query and counted with the refused ones in one
   * update that moves `next_line`; each new row is one change whose statement also moves
   * `next_line` past it. So a crash at any point leaves `next_line` on the first row not yet done.
   */
  async function importRows(
    importId: string,
    userId: string,
    input: ImportInput,
    nextLine: number,
    announce: (e: readonly GroupEvent[]) => void,
  ) {
    const { people } = input.file;
    const records = csvRecords(input.csv);
    records.next(); // the header
    let batch: SplitwiseRow[] = [];
    const flushBatch = async () => {
      const ids = batch
        .filter((r) => r.kind === 'expense' || r.kind === 'settlement')
        .map((r) => recordIdOf(importId, r));
      const found = await present(ids);
      let pending = { existing: 0, refused: [] as { line: number; reason: string }[] };
      const settle = async (next: number) => {
        if (pending.existing === 0 && pending.refused.length === 0) return;
        await runAlone(progress(importId, next, pending, 'alone'));
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
          try {
            await change(async (ctx) => {
              const group = await ctx.open(input.groupId, userId);
              const { events } = stageRow(group, userId, input, row);
              group.write(progress(importId, row.line + 1, { created: 1 }, 'guard'));
              return { events };
            }, announce);
          } catch (error) {
            // Another run of the same file (another process) created it first: it is present.
            if (!isUniqueViolation(error)) throw error;
            pending.existing++;
          }
        }
      }
      const last = batch[batch.length - 1];
      if (last) await settle(last.line + 1);
      batch = [];
    };
    for (const record of records) {
      if (record.line < nextLine) continue;
      const row = interpretRecord(record, people);
      if (row.kind === 'blank') continue;
      batch.push(row);
      if (batch.length >= BATCH) await flushBatch();
    }
    await flushBatch();
  }

  /** The import's end, as a change (`import.completed` with the report); the report after it. */
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
        // The report without its list of refusals (which can be long): their number.
        const { refused, ...summary } = toReport(row);
        const data = { import: { ...summary, status: 'completed', refusedCount: refused.length } };
        return { events: [group.commit('import.completed', userId, data)] };
      }, announce);
    }
    return toReport((await readRow(importId)) as ImportRow);
  }

  return {
    /** Runs the import to its end (or resumes it), and answers its report: `201`. */
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
        const row = await readRow(importId);
        if (!row) throw new Error('the import vanished');
        await importRows(importId, userId, input, row.next_line, announce);
        return complete(importId, userId, input.groupId, announce);
      })();
      running.set(importId, mine);
      try {
        const report = await mine;
        return created(report, { Location: `/v1/groups/${input.groupId}/imports/${importId}` });
      } finally {
        if (running.get(importId) === mine) running.delete(importId);
      }
    },

    /** The report of an import of `groupId`, for a member of it; 404 otherwise. */
    async get(userId: string, groupId: string, importId: string): Promise<ImportReport> {
      const { rows } = await knex.raw<{ rows: ImportRow[] }>(
        `select i.* from imports i join group_members m on m.group_id = i.group_id and m.user_id = ?
          where i.id = ? and i.group_id = ?`,
        [userId, importId, groupId],
      );
      const row = rows[0];
      if (!row) throw notFound('Import');
      return toReport(row);
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
