import type { GroupEvent } from '@tally/events';
import type { Knex } from 'knex';
import type { Reply } from '../http/reply';

export type WriteResult = { reply: Reply; events: GroupEvent[] };

/** Where a durable idempotency record joins the write's transaction (see packages/idempotency). */
export type TransactionHook = (trx: Knex.Transaction, reply: Reply) => Promise<void>;

/** Told about every event after its transaction committed; a failure here never fails the write. */
export type EventNotifier = (events: readonly GroupEvent[]) => void;

/**
 * Runs one change in one transaction: the domain rows, the balances, the event and (when the
 * request is keyed) the durable idempotency record commit together or not at all. Events are
 * announced only after the commit.
 */
export function createWriteRunner(deps: { knex: Knex; notify: EventNotifier }) {
  return async function runWrite(
    work: (trx: Knex.Transaction) => Promise<WriteResult>,
    beforeCommit?: TransactionHook,
  ): Promise<Reply> {
    const result = await deps.knex.transaction(async (trx) => {
      const outcome = await work(trx);
      if (beforeCommit) await beforeCommit(trx, outcome.reply);
      return outcome;
    });
    if (result.events.length > 0) deps.notify(result.events);
    return result.reply;
  };
}

export type RunWrite = ReturnType<typeof createWriteRunner>;
