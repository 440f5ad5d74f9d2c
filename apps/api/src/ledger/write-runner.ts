import type { GroupEvent } from '@tally/events';
import type { TransactionHook } from '@tally/idempotency';
import type { Knex } from 'knex';
import type { Reply } from '../http/reply';
import { flushGroupWrite } from './group-write';

export type WriteResult = { reply: Reply; events: GroupEvent[] };

export type { TransactionHook } from '@tally/idempotency';

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
      // A GroupWrite stages its last statement; it runs now that the reply is known, with the
      // durable idempotency record folded in: one round trip for both.
      const flushed = await flushGroupWrite(trx, () => beforeCommit?.statement(outcome.reply));
      if (!flushed && beforeCommit) await beforeCommit.insert(trx, outcome.reply);
      beforeCommit?.written();
      return outcome;
    });
    if (result.events.length > 0) deps.notify(result.events);
    return result.reply;
  };
}

export type RunWrite = ReturnType<typeof createWriteRunner>;
