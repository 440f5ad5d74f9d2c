/**
 * The app the outbox tests play: a seeded plan of money writes (expense creates, edits, deletes and
 * settlements across a few groups), how one write becomes an outbox call, and the check that the
 * server ends with every write exactly once, in per-group order. Shared by the kill test (Node child
 * processes), its child, and the browser reload test; nothing here imports server code.
 */
import type { GroupEvent, Outbox, OutboxEntry } from '../../packages/client/src';
import { seededRandom as prng } from '../support/random';

export type PlanWrite =
  | { i: number; kind: 'create'; group: number; amount: number }
  | { i: number; kind: 'edit'; group: number; target: number; amount: number }
  | { i: number; kind: 'delete'; group: number; target: number }
  | { i: number; kind: 'settle'; group: number; amount: number; from: 'me' | 'other' };

/** The users and groups a plan is played in: `me` is the device's user, `others` the other members. */
export type PlanWorld = { me: string; others: string[]; groupIds: string[] };

/** What every entry of the test app carries in `meta`. */
export type WriteMeta = { write: number };

/** The seeded PRNG of test support, under the name the outbox tests know it by. */
export { prng };

/**
 * `count` writes over `groups` groups: about 40 % creates, 25 % edits and 10 % deletes of expenses
 * still live in the plan, 25 % settlements. Every write is distinguishable on the server: a create's
 * description is `w<i>`, an edit sets the description to `w<i>`, a settlement's note is `w<i>`.
 */
export function makePlan(seed: number, count: number, groups: number): PlanWrite[] {
  const random = prng(seed);
  const live: number[][] = Array.from({ length: groups }, () => []);
  const plan: PlanWrite[] = [];
  const amount = () => 100 + Math.floor(random() * 9900);
  for (let i = 0; i < count; i++) {
    const group = Math.floor(random() * groups);
    const alive = live[group] as number[];
    const r = random();
    if (r < 0.4 || alive.length === 0) {
      plan.push({ i, kind: 'create', group, amount: amount() });
      alive.push(i);
    } else if (r < 0.65) {
      const target = alive[Math.floor(random() * alive.length)] as number;
      plan.push({ i, kind: 'edit', group, target, amount: amount() });
    } else if (r < 0.75) {
      const at = Math.floor(random() * alive.length);
      const target = alive[at] as number;
      alive.splice(at, 1);
      plan.push({ i, kind: 'delete', group, target });
    } else {
      plan.push({ i, kind: 'settle', group, amount: amount(), from: random() < 0.5 ? 'me' : 'other' });
    }
  }
  return plan;
}

/**
 * Makes write `w` through the outbox; resolves once it is stored. `ids` maps create writes to the
 * expense ids the outbox made for them (filled in here for creates).
 */
export async function makeWrite(
  outbox: Outbox,
  world: PlanWorld,
  w: PlanWrite,
  ids: Map<number, string>,
): Promise<OutboxEntry> {
  const groupId = world.groupIds[w.group] as string;
  const other = world.others[w.i % world.others.length] as string;
  const meta: WriteMeta = { write: w.i };
  const targetOf = (target: number) => {
    const id = ids.get(target);
    if (!id) throw new Error(`write ${w.i}: no expense id known for write ${target}`);
    return { id, groupId };
  };
  switch (w.kind) {
    case 'create': {
      const entry = await outbox.createExpense(
        {
          groupId,
          description: `w${w.i}`,
          amount: w.amount,
          paidBy: world.me,
          split: { type: 'equal', between: [world.me, ...world.others] },
        },
        { meta },
      );
      ids.set(w.i, entry.expenseId);
      return entry;
    }
    case 'edit':
      return outbox.patchExpense(targetOf(w.target), { description: `w${w.i}`, amount: w.amount }, { meta });
    case 'delete':
      return outbox.deleteExpense(targetOf(w.target), { meta });
    case 'settle':
      return outbox.createSettlement(
        {
          groupId,
          fromUserId: w.from === 'me' ? world.me : other,
          toUserId: w.from === 'me' ? other : world.me,
          amount: w.amount,
          note: `w${w.i}`,
        },
        { meta },
      );
  }
}

/** The write a stored entry stands for, and (for a create) the expense id it made. */
export function madeFrom(entry: OutboxEntry): { write: number; expenseId: string | undefined } {
  const write = (entry.meta as WriteMeta | undefined)?.write;
  if (typeof write !== 'number') throw new Error(`entry ${entry.id} has no write number`);
  return {
    write,
    expenseId: entry.operation.type === 'expense.create' ? entry.operation.expenseId : undefined,
  };
}

/**
 * Maps a group's event log back to plan writes and compares it with the plan: the log must hold each
 * of the group's writes exactly once, in the order they were made. Returns the problems found (none
 * when it holds) and the writes as the log has them.
 */
export function checkGroupLog(
  plan: PlanWrite[],
  group: number,
  ids: Map<number, string>,
  events: GroupEvent[],
): { problems: string[]; logged: number[] } {
  const problems: string[] = [];
  const writeOfExpense = new Map<string, number>();
  for (const [write, id] of ids) writeOfExpense.set(id, write);
  const deleteOf = new Map<number, number>();
  for (const w of plan) if (w.kind === 'delete') deleteOf.set(w.target, w.i);
  const numberOf = (text: string | null | undefined): number | undefined => {
    const match = /^w(\d+)$/.exec(text ?? '');
    return match ? Number(match[1]) : undefined;
  };

  const logged: number[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'member.added':
        break;
      case 'expense.created': {
        const write = writeOfExpense.get(event.data.expense.id);
        if (write === undefined || event.data.restored) {
          problems.push(`seq ${event.seq}: expense.created for an unknown expense ${event.data.expense.id}`);
          break;
        }
        if (numberOf(event.data.expense.description) !== write) {
          problems.push(
            `seq ${event.seq}: expense of write ${write} created as ${event.data.expense.description}`,
          );
        }
        logged.push(write);
        break;
      }
      case 'expense.updated': {
        const write = numberOf(event.data.expense.description);
        const w = write === undefined ? undefined : plan[write];
        if (w?.kind !== 'edit' || ids.get(w.target) !== event.data.expense.id) {
          problems.push(
            `seq ${event.seq}: expense.updated not from an edit write (${event.data.expense.description})`,
          );
          break;
        }
        logged.push(write as number);
        break;
      }
      case 'expense.deleted': {
        const created = writeOfExpense.get(event.data.expense.id);
        const write = created === undefined ? undefined : deleteOf.get(created);
        if (write === undefined) {
          problems.push(
            `seq ${event.seq}: expense.deleted of ${event.data.expense.id} that no write deletes`,
          );
          break;
        }
        logged.push(write);
        break;
      }
      case 'settlement.created': {
        const write = numberOf(event.data.settlement.note);
        if (write === undefined || plan[write]?.kind !== 'settle') {
          problems.push(
            `seq ${event.seq}: settlement.created not from a settle write (${event.data.settlement.note})`,
          );
          break;
        }
        logged.push(write);
        break;
      }
      default:
        problems.push(`seq ${event.seq}: unexpected ${event.type}`);
    }
  }
  const expected = plan.filter((w) => w.group === group).map((w) => w.i);
  const counts = new Map<number, number>();
  for (const write of logged) counts.set(write, (counts.get(write) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([write, n]) => `w${write}×${n}`);
  if (twice.length > 0) problems.push(`group ${group}: written more than once: ${twice.join(', ')}`);
  const missing = expected.filter((write) => !counts.has(write));
  if (missing.length > 0) problems.push(`group ${group}: missing writes ${missing.join(', ')}`);
  if (problems.length === 0 && logged.join(',') !== expected.join(',')) {
    problems.push(`group ${group}: order differs: log ${logged.join(',')} vs made ${expected.join(',')}`);
  }
  return { problems, logged };
}
