import type { Sql } from '@tally/db';
import { DurableRecordExists } from '@tally/idempotency';
import type { GroupChange } from './group-change';
import type { GroupState } from './group-snapshot';
import type { StatementBatcher, Ticket } from './write-batch';
import { isLiveRecord, type StatementRow } from './write-statements';

/**
 * A write whose statement is on its way (group commit), and the state it will leave: the group's
 * next write in this process is decided on that state at once, instead of waiting for the
 * statement to come back, so that both can go in one batch. The next one's guard names this one's
 * event (`GroupChange.buildsOn`): it applies only after this one did.
 */
export type Ahead = {
  state: GroupState;
  event: { eventId: string; at: Date };
  ticket: Ticket;
  /** Settles (never rejects) when the statement is back. */
  back: Promise<unknown>;
  /** The statement failed or did not apply: nothing may build on it any more. */
  failed: boolean;
  /** The write this one builds on, while that one is on its way too. */
  parent: Ahead | undefined;
};

/**
 * Chaining: per group, the last write of this process on its way (`Ahead`), what the group's next
 * write builds on, and the queueing of a change's statement with the next batch after it.
 */
export function createChain(batcher: StatementBatcher, nameOf: (text: string) => string) {
  const aheadOf = new Map<string, Ahead>();

  /** The group's last write on its way, if what it builds on has not failed. */
  function usable(groupId: string): Ahead | undefined {
    const ahead = aheadOf.get(groupId);
    for (let link = ahead; link; link = link.parent) {
      if (link.failed) {
        aheadOf.delete(groupId);
        return undefined;
      }
    }
    return ahead;
  }

  /** Whether a write of this process to the group is on its way. */
  const onItsWay = (groupId: string): boolean => {
    const ahead = aheadOf.get(groupId);
    return ahead !== undefined && ahead.ticket.stage !== 'settled';
  };

  /** Waits until the group's writes on their way are back, so that a read of the group sees them. */
  async function writesBack(groupId: string): Promise<void> {
    for (
      let ahead = aheadOf.get(groupId);
      ahead && ahead.ticket.stage !== 'settled';
      ahead = aheadOf.get(groupId)
    )
      await ahead.back;
  }

  /**
   * Queues the change's statement with the next batch (after `builtOn`'s, when the change was
   * decided on the state that one leaves), then calls `queued` (the write gives the group's turn to
   * its next write, which builds on this change and may share its batch). Its row once it is back.
   */
  async function send(
    statement: Sql,
    change: GroupChange,
    builtOn: Ahead | undefined,
    queued: () => void,
  ): Promise<StatementRow | undefined> {
    const groupId = change.group.id;
    const text = statement.text;
    const { ticket, rows } = batcher.enqueue(
      { name: nameOf(text), text, values: statement.values, groupId },
      builtOn?.ticket,
    );
    const ahead: Ahead = {
      state: change.after(),
      event: change.staged as NonNullable<GroupChange['staged']>,
      ticket,
      back: rows.catch(() => undefined),
      failed: false,
      parent: builtOn,
    };
    aheadOf.set(groupId, ahead);
    queued();
    let row: StatementRow | undefined;
    try {
      [row] = (await rows) as StatementRow[];
    } catch (error) {
      ahead.failed = true;
      if (aheadOf.get(groupId) === ahead) aheadOf.delete(groupId);
      // TY001: a live durable record holds the key; the statement was undone, nothing was written.
      if (isLiveRecord(error)) throw new DurableRecordExists();
      throw error;
    }
    ahead.parent = undefined;
    if (!(row && Number(row.applied) > 0)) ahead.failed = true;
    if (aheadOf.get(groupId) === ahead) aheadOf.delete(groupId);
    return row;
  }

  return { usable, onItsWay, writesBack, send };
}

export type Chain = ReturnType<typeof createChain>;
