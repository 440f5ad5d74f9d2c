import type { IncomingHttpHeaders } from 'node:http';
import { pinnedTo, queryNamed, takePooledConnection } from '@tally/db';
import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';
import { Counter, type Registry } from 'prom-client';

/**
 * Where a request's reads go (API.md §1 "Reads from replicas"): with `DATABASE_READ_URL`, the
 * reads of the routes that opt in (`GET` of expenses, balances, search, activity, exports) go to a
 * replica, and a client never sees an older state than one it has already seen:
 *
 * - every write's answer carries its group's `seq` (`X-Seq: <groupId>:<seq>`), as every event does;
 * - a read may send the states it has seen (`X-Min-Seq: <groupId>:<seq>, …`); the replica's check
 *   and the read then run on one replica connection (so on one server, whichever of a `-ro`
 *   Service's the connection reached), and a replica that has not replayed that far leaves the
 *   read to the primary;
 * - a replica that cannot be reached, or that cancels the read (a conflict with recovery), leaves it
 *   to the primary too: a replica only ever takes load off the primary, never availability.
 *
 * Without `DATABASE_READ_URL` every read is the primary's, and `X-Min-Seq` is checked for its form
 * only: the primary is never behind.
 */

/** The most groups one `X-Min-Seq` may name (API.md §9.1): its check is one indexed statement. */
export const MAX_MIN_SEQ_ENTRIES = 20;

/** How far a replica has replayed the groups a read names (a named statement: parsed once per connection). */
const REPLAYED = {
  name: 'tally_replayed_seqs',
  text: 'select id, last_seq from groups where id = any($1::text[])',
};

/** `<groupId>:<seq>`: what `X-Seq` says and `X-Min-Seq` lists. */
const ENTRY = /^(grp_[A-Za-z0-9_-]{1,100}):(0|[1-9][0-9]{0,15})$/;

/** How a read was served: the `db_reads_total{served_by}` label. */
type Served = 'replica' | 'primary' | 'primary_behind' | 'primary_stream' | 'primary_replica_failed';

/** The `X-Seq` header of a write's answer: the group's `seq` once the write is in (or as it found it). */
export const seqHeader = (groupId: string, seq: number): Record<string, string> => ({
  'X-Seq': `${groupId}:${seq}`,
});

const invalid = (detail: string) => new AppError('min_seq_invalid', 400, detail);

/**
 * The states a read must not go behind, from its `X-Min-Seq` (absent or empty: none): the highest
 * `seq` per group. `400 min_seq_invalid` for anything but comma-separated `<groupId>:<seq>` entries,
 * at most `MAX_MIN_SEQ_ENTRIES` of them.
 */
export function parseMinSeq(headers: IncomingHttpHeaders): Map<string, number> {
  const wanted = new Map<string, number>();
  const header = headers['x-min-seq'];
  if (header === undefined) return wanted;
  const text = Array.isArray(header) ? header.join(',') : header;
  // Bounded before it is split: an entry is at most ~125 characters.
  if (text.length > MAX_MIN_SEQ_ENTRIES * 130)
    throw invalid(`X-Min-Seq lists at most ${MAX_MIN_SEQ_ENTRIES} groups.`);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length > MAX_MIN_SEQ_ENTRIES)
    throw invalid(`X-Min-Seq lists at most ${MAX_MIN_SEQ_ENTRIES} groups.`);
  for (const entry of entries) {
    const match = ENTRY.exec(entry);
    if (!match) throw invalid('X-Min-Seq is a comma-separated list of <groupId>:<seq> entries.');
    const groupId = match[1] as string;
    const seq = Number(match[2]);
    if (!Number.isSafeInteger(seq)) throw invalid('A seq in X-Min-Seq is too large.');
    wanted.set(groupId, Math.max(seq, wanted.get(groupId) ?? 0));
  }
  return wanted;
}

/**
 * A long read that streams its answer in pages (an export): `started()` says whether it has sent
 * anything yet (after that, a failure cannot be answered again from the primary).
 */
export type StreamedRead = { started(): boolean };

export type ReadRouting = {
  /**
   * Runs `read` where the request's reads go: the replica when there is one and it is far enough
   * (`X-Min-Seq`), else the primary. `read` may run twice (replica, then primary) when the replica
   * fails before answering. A stream goes to the replica only when the request names no state (a
   * long transaction on a standby holds back its replay), and to the primary after a replica
   * failure only if it has sent nothing yet.
   */
  run<T>(headers: IncomingHttpHeaders, read: (db: Knex) => Promise<T>, stream?: StreamedRead): Promise<T>;
};

/** Errors of the replica itself (not of the request): the read goes to the primary instead. */
function isReplicaFailure(error: unknown): boolean {
  if (error instanceof AppError) return false;
  const e = error as { name?: string; code?: string };
  if (e?.name === 'KnexTimeoutError') return true;
  const code = typeof e?.code === 'string' ? e.code : '';
  // The system's connection errors (ECONNREFUSED, ECONNRESET, ETIMEDOUT…; not Node's own ERR_…), a
  // server shutting down or restarting (57P01–03), a connection failure (08xxx), and a read
  // cancelled by a conflict with recovery (40001 on a standby, `max_standby_streaming_delay`).
  return /^E[A-Z]+$/.test(code) || code.startsWith('57P') || code.startsWith('08') || code === '40001';
}

export function createReadRouting(deps: {
  primary: Knex;
  /** The replica pool (`DATABASE_READ_URL`); undefined: every read is the primary's. */
  replica?: Knex | undefined;
  registry?: Registry;
}): ReadRouting {
  const { primary, replica } = deps;
  const reads = new Counter({
    name: 'db_reads_total',
    help: 'Reads of the routes that may go to a replica, by where they were served (replica, or primary: no replica configured, replica behind X-Min-Seq, a stream naming a state, replica failed).',
    labelNames: ['served_by'],
    registers: deps.registry ? [deps.registry] : [],
  });
  const served = (by: Served) => reads.inc({ served_by: by });

  async function onPrimary<T>(read: (db: Knex) => Promise<T>, by: Served): Promise<T> {
    served(by);
    return read(primary);
  }

  /**
   * The read on one replica connection, if that server has replayed every state in `wanted`; else
   * undefined. A server replays in order, so every statement after the check sees at least what
   * the check saw.
   */
  async function onReplicaAtLeast<T>(
    db: Knex,
    wanted: Map<string, number>,
    read: (db: Knex) => Promise<T>,
  ): Promise<{ value: T } | undefined> {
    const { connection, release } = await takePooledConnection(db);
    let broken = false;
    try {
      const ids = [...wanted.keys()];
      const rows = await queryNamed<{ id: string; last_seq: string }>(db, connection, REPLAYED, [ids]);
      const replayed = new Map(rows.map((row) => [row.id, Number(row.last_seq)]));
      // A group the replica has not got at all is behind too (created since, or unknown).
      if (ids.some((id) => (replayed.get(id) ?? -1) < (wanted.get(id) as number))) return undefined;
      return { value: await read(pinnedTo(db, connection)) };
    } catch (error) {
      broken = isReplicaFailure(error);
      throw error;
    } finally {
      await release(broken);
    }
  }

  return {
    async run<T>(headers: IncomingHttpHeaders, read: (db: Knex) => Promise<T>, stream?: StreamedRead) {
      const wanted = parseMinSeq(headers);
      if (!replica) return onPrimary(read, 'primary');
      if (wanted.size > 0 && stream) return onPrimary(read, 'primary_stream');
      let result: { value: T } | undefined;
      try {
        result =
          wanted.size === 0 ? { value: await read(replica) } : await onReplicaAtLeast(replica, wanted, read);
      } catch (error) {
        // A stream that has written part of its answer is not started again.
        if (stream?.started() || !isReplicaFailure(error)) {
          served('replica');
          throw error;
        }
        return onPrimary(read, 'primary_replica_failed');
      }
      if (result === undefined) return onPrimary(read, 'primary_behind');
      served('replica');
      return result.value;
    },
  };
}
