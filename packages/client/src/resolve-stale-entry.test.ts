import { NotFoundError, PreconditionFailedError } from './errors.js';
import type { HttpResponse } from './http-client.js';
import type { OutboxEntry, OutboxOperation } from './outbox-types.js';
import { resolveStaleEntry, type StaleReads } from './resolve-stale-entry.js';
import type { Expense, ExpenseRequest, RecurringExpense, Settlement } from './types.js';

const expense: Expense = {
  id: 'exp_1',
  groupId: 'grp_1',
  description: 'Dinner',
  category: null,
  categoryId: null,
  amount: 1000,
  currency: 'INR',
  paidBy: [{ userId: 'usr_a', amount: 1000 }],
  occurredAt: '2026-11-25T10:00:00.000Z',
  split: { type: 'equal', between: ['usr_a', 'usr_b'] },
  shares: [
    { userId: 'usr_a', owed: 500 },
    { userId: 'usr_b', owed: 500 },
  ],
  createdBy: 'usr_a',
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
  version: 3,
  recurringId: null,
};
const settlement = { id: 'stl_1', groupId: 'grp_1' } as Settlement;

const entryOf = (operation: OutboxOperation): OutboxEntry => ({
  id: 'e1',
  seq: 1,
  groupId: 'grp_1',
  operation,
  method: 'PUT',
  path: '/',
  idempotencyKey: 'k1',
  createdAt: '2026-11-25T09:00:00.000Z',
});

/** The server's state: what a GET of each path answers (absent: 404), and what a search for a create finds. */
function state(
  found: Record<string, unknown>,
  match?: Settlement,
  recurringMatch?: RecurringExpense,
): StaleReads & { paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    async read<T>(path: string) {
      paths.push(path);
      if (!(path in found)) return undefined;
      return { data: found[path] as T, etag: '"v3"' } as HttpResponse<T>;
    },
    async claimSettlement() {
      return match;
    },
    async claimRecurring() {
      return recurringMatch;
    },
  };
}

const live = { '/v1/expenses/exp_1': expense };
const request: ExpenseRequest = {
  groupId: 'grp_1',
  description: 'Dinner',
  amount: 1000,
  paidBy: 'usr_a',
  split: { type: 'equal', between: ['usr_a', 'usr_b'] },
};
const edit = { amount: 2000 };

describe('resolveStaleEntry: one handler per operation type', () => {
  const create: OutboxOperation = { type: 'expense.create', expenseId: 'exp_1', body: request };
  const shownEdit: OutboxOperation = { type: 'expense.patch', expenseId: 'exp_1', body: { amount: 1000 } };
  const patch: OutboxOperation = { type: 'expense.patch', expenseId: 'exp_1', body: edit };
  const lateEdit: OutboxOperation = { ...patch, ifMatch: '"v2"' };
  const replace: OutboxOperation = {
    type: 'expense.replace',
    expenseId: 'exp_1',
    body: { ...request, amount: 2000 },
    ifMatch: '"v3"',
  };
  const remove: OutboxOperation = { type: 'expense.delete', expenseId: 'exp_1' };
  const lateRemove: OutboxOperation = { ...remove, ifMatch: '"v2"' };
  const restore: OutboxOperation = { type: 'expense.restore', expenseId: 'exp_1' };
  const undo: OutboxOperation = { type: 'settlement.delete', settlementId: 'stl_1' };
  const stillThere = { '/v1/settlements/stl_1': settlement };

  it.each([
    ['a create whose expense exists', create, live, 'found'],
    ['a create whose expense is missing', create, {}, 'resent'],
    ['an edit the expense already shows', shownEdit, live, 'found'],
    ['an edit without If-Match not shown yet', patch, live, 'resent'],
    ['an edit onto the version it expected', replace, live, 'resent'],
    ['an edit of a gone expense', patch, {}, 'conflict'],
    ['an edit of an expense changed since', lateEdit, live, 'conflict'],
    ['a delete of a gone expense', remove, {}, 'found'],
    ['a delete of an expense still there', remove, live, 'resent'],
    ['a delete of an expense changed since', lateRemove, live, 'conflict'],
    ['a restore of a live expense', restore, live, 'found'],
    ['a restore of a deleted expense', restore, {}, 'resent'],
    ['a settlement delete of a gone settlement', undo, {}, 'found'],
    ['a settlement delete of a settlement still there', undo, stillThere, 'resent'],
  ] as const)('%s', async (_what, operation, found, action) => {
    const decision = await resolveStaleEntry(entryOf(operation), state(found));
    expect(decision.action).toBe(action);
  });

  it('resends an edit with the If-Match it expected, or else that of the version it read', async () => {
    const expected = await resolveStaleEntry(entryOf({ ...patch, ifMatch: '"v3"' }), state(live));
    expect(expected).toMatchObject({ action: 'resent', ifMatch: '"v3"' });
    const read = await resolveStaleEntry(entryOf(remove), state(live));
    expect(read).toMatchObject({ action: 'resent', ifMatch: '"v3"' });
  });

  it('rejects a conflict with the problem the server would have answered', async () => {
    const gone = await resolveStaleEntry(entryOf(patch), state({}));
    const changed = await resolveStaleEntry(entryOf(lateRemove), state(live));
    expect(gone.action === 'conflict' && gone.error).toBeInstanceOf(NotFoundError);
    expect(changed.action === 'conflict' && changed.error).toBeInstanceOf(PreconditionFailedError);
    expect(changed.summary).toContain('now "v3", the delete expected "v2"');
  });

  it('compares splits and payers by content, not by key or payer order', async () => {
    const body = {
      split: { between: ['usr_a', 'usr_b'], type: 'equal' as const },
      paidBy: [{ amount: 1000, userId: 'usr_a' }],
    };
    const decision = await resolveStaleEntry(
      entryOf({ type: 'expense.patch', expenseId: 'exp_1', body }),
      state(live),
    );
    expect(decision.action).toBe('found');
  });

  it('recognises a settlement create only by a settlement the search claims', async () => {
    const operation: OutboxOperation = {
      type: 'settlement.create',
      body: { groupId: 'grp_1', fromUserId: 'usr_b', toUserId: 'usr_a', amount: 500 },
    };
    const matched = await resolveStaleEntry(entryOf(operation), state({}, settlement));
    expect(matched).toMatchObject({ action: 'found', current: settlement });
    const none = await resolveStaleEntry(entryOf(operation), state({}));
    expect(none.action).toBe('resent');
  });

  describe('recurring expenses', () => {
    const recurring = {
      id: 'rec_1',
      groupId: 'grp_1',
      expense: {
        description: 'Rent',
        amount: 900,
        paidBy: 'usr_a',
        split: { type: 'equal', between: ['usr_a'] },
      },
      schedule: { every: 'month', startsOn: '2027-01-31', until: null, timeZone: 'UTC' },
      nextOccurrence: '2027-01-31',
      createdBy: 'usr_a',
      version: 3,
      createdAt: '2026-11-25T09:00:00.000Z',
      updatedAt: '2026-11-25T09:00:00.000Z',
    } as RecurringExpense;
    const there = { '/v1/recurring/rec_1': recurring };

    it('recognises a create only by a recurring expense the search claims', async () => {
      const operation: OutboxOperation = {
        type: 'recurring.create',
        groupId: 'grp_1',
        body: {
          expense: recurring.expense,
          schedule: { every: 'month', startsOn: '2027-01-31', timeZone: 'UTC' },
        },
      };
      const matched = await resolveStaleEntry(entryOf(operation), state({}, undefined, recurring));
      expect(matched).toMatchObject({ action: 'found', current: recurring });
      expect((await resolveStaleEntry(entryOf(operation), state({}))).action).toBe('resent');
    });

    it('finds a patch already shown, resends one that is not, and refuses one made on another version', async () => {
      const shown: OutboxOperation = {
        type: 'recurring.patch',
        recurringId: 'rec_1',
        body: { expense: { amount: 900 }, schedule: { until: null } },
      };
      expect((await resolveStaleEntry(entryOf(shown), state(there))).action).toBe('found');
      const patch: OutboxOperation = {
        type: 'recurring.patch',
        recurringId: 'rec_1',
        body: { expense: { amount: 1 } },
      };
      expect(await resolveStaleEntry(entryOf(patch), state(there))).toMatchObject({
        action: 'resent',
        ifMatch: '"v3"',
      });
      const late = await resolveStaleEntry(entryOf({ ...patch, ifMatch: '"v2"' }), state(there));
      expect(late.action === 'conflict' && late.error).toBeInstanceOf(PreconditionFailedError);
      const gone = await resolveStaleEntry(entryOf(patch), state({}));
      expect(gone.action === 'conflict' && gone.error).toBeInstanceOf(NotFoundError);
    });

    it('finds a delete done when the recurring expense is gone, and stops it otherwise', async () => {
      const remove: OutboxOperation = { type: 'recurring.delete', recurringId: 'rec_1' };
      expect((await resolveStaleEntry(entryOf(remove), state({}))).action).toBe('found');
      expect(await resolveStaleEntry(entryOf(remove), state(there))).toMatchObject({
        action: 'resent',
        ifMatch: '"v3"',
      });
    });
  });
});
