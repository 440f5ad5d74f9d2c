import type { GroupEvent } from '@tally/events';
import type { TransactionHook } from '@tally/idempotency';
import type { Knex } from 'knex';
import type { Reply } from '../http/reply';
import type { GroupGate } from './group-access';
import { flushGroupWrite } from './group-write';

export type WriteResult = { reply: Reply; events: GroupEvent[] };

export type { TransactionHook } from '@tally/idempotency';

/** Told about every event after its transaction committed; a failure here never fails the write. */
export type EventNotifier = (events: readonly GroupEvent[]) => void;

export type WriteOptions = {
  /**
   * Runs the work once more, in a fresh transaction, when the first attempt failed with an error
   * this accepts: e.g. a create that lost the race for its client-chosen id, which on the second
   * attempt finds the row and replaces it instead.
   */
  retryIf?: (error: unknown) => boolean;
  /**
   * The group the write changes, when it is known before the transaction: the write first takes
   * its place in the group's gate (503 when the group is busy), before any pooled connection.
   */
  groupId?: string | undefined;
};

/**
 * Runs one change in one transaction: the domain rows, the balances, the event and (when the
 * request is keyed) the durable idempotency record commit together or not at all. Events are
 * announced only after the commit: by `notify`, or by the idempotency layer with the completion.
 */
export function createWriteRunner(deps: { knex: Knex; notify: EventNotifier; groupGate?: GroupGate }) {
  async function attempt(
    work: (trx: Knex.Transaction) => Promise<WriteResult>,
    beforeCommit: TransactionHook | undefined,
  ): Promise<Reply> {
    const result = await deps.knex.transaction(async (trx) => {
      const outcome = await work(trx);
      // A GroupWrite stages its last statement; it runs now that the reply is known, with the
      // durable idempotency record folded in: one round trip for both.
      const flushed = await flushGroupWrite(trx, () => beforeCommit?.statement(outcome.reply));
      if (!flushed && beforeCommit) await beforeCommit.insert(trx, outcome.reply);
      beforeCommit?.written();
      return outcome;
    });
    // A keyed write's layer may take the events, to publish them with its completion record (one
    // Redis round trip for both); otherwise they are announced here.
    if (result.events.length > 0 && !beforeCommit?.announce?.(result.events)) deps.notify(result.events);
    return result.reply;
  }

  return async function runWrite(
    work: (trx: Knex.Transaction) => Promise<WriteResult>,
    beforeCommit?: TransactionHook,
    options: WriteOptions = {},
  ): Promise<Reply> {
    const release = options.groupId ? await deps.groupGate?.enter(options.groupId) : undefined;
    try {
      return await attempt(work, beforeCommit);
    } catch (error) {
      if (!options.retryIf?.(error)) throw error;
      return attempt(work, beforeCommit);
    } finally {
      release?.();
    }
  };
}

export type RunWrite = ReturnType<typeof createWriteRunner>;
