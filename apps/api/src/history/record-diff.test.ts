import { diffRecord } from './record-diff';

const expense = (fields: Record<string, unknown> = {}) => ({
  id: 'exp_1',
  groupId: 'grp_1',
  description: 'Dinner',
  category: null,
  amount: 900,
  currency: 'EUR',
  paidBy: [{ userId: 'usr_a', amount: 900 }],
  occurredAt: '2026-11-25T19:30:00.000Z',
  split: { type: 'equal', between: ['usr_a', 'usr_b'] },
  shares: [
    { userId: 'usr_a', owed: 450 },
    { userId: 'usr_b', owed: 450 },
  ],
  createdBy: 'usr_a',
  createdAt: '2026-11-25T19:30:00.000Z',
  updatedAt: '2026-11-25T19:30:00.000Z',
  version: 1,
  recurringId: null,
  ...fields,
});

describe('diffRecord', () => {
  it('finds nothing between versions that differ only in version and times', () => {
    expect(diffRecord(expense(), expense({ version: 2, updatedAt: '2026-11-26T00:00:00.000Z' }))).toEqual([]);
  });

  it('diffs payers and shares per member, members only on one side from or to null', () => {
    const after = expense({
      paidBy: [
        { userId: 'usr_a', amount: 500 },
        { userId: 'usr_c', amount: 400 },
      ],
      split: { type: 'equal', between: ['usr_a', 'usr_c'] },
      shares: [
        { userId: 'usr_a', owed: 450 },
        { userId: 'usr_c', owed: 450 },
      ],
    });
    expect(diffRecord(expense(), after)).toEqual([
      { field: 'paidBy', userId: 'usr_a', from: 900, to: 500 },
      { field: 'paidBy', userId: 'usr_c', from: null, to: 400 },
      { field: 'split.between', userId: 'usr_c', from: null, to: true },
      { field: 'split.between', userId: 'usr_b', from: true, to: null },
      { field: 'shares', userId: 'usr_c', from: null, to: 450 },
      { field: 'shares', userId: 'usr_b', from: 450, to: null },
    ]);
  });

  it('compares an itemized split’s items, tax and tip whole', () => {
    const items = (amount: number) => ({
      type: 'items',
      items: [{ amount, between: ['usr_a', 'usr_b'] }],
      tip: 100,
    });
    const before = expense({ split: items(800) });
    const after = expense({ split: { ...items(700), tip: 200 } });
    expect(diffRecord(before, after)).toEqual([
      { field: 'split.items', from: items(800).items, to: items(700).items },
      { field: 'split.tip', from: 100, to: 200 },
    ]);
  });

  it('diffs a field the record gained whole, but not one the older version did not carry', () => {
    const before: Record<string, unknown> = expense();
    delete before['category'];
    expect(diffRecord(before, expense({ category: 'Food', note: 'x' }))).toEqual([]);
    expect(diffRecord(expense({ note: 'a' }), expense({ note: 'b', category: 'Food' }))).toEqual([
      { field: 'category', from: null, to: 'Food' },
      { field: 'note', from: 'a', to: 'b' },
    ]);
  });
});
