import type { Knex } from 'knex';

/**
 * The stored totals of a group's statistics that count (`expense_totals`, migration 027: rows of
 * non-zero counts), and their recomputation here, in TypeScript, from the group's live expense rows:
 * what the migration's backfill and the triggers must keep equal.
 */
export async function storedAndRecomputedTotals(knex: Knex, groupId: string) {
  const stored = await knex('expense_totals')
    .where({ group_id: groupId })
    .andWhere((q) => q.where('expenses', '>', 0).orWhere('involved', '>', 0))
    .select('currency', 'month', 'category_id', 'member', 'share', 'paid', 'expenses', 'involved');
  const rows = await knex('expenses').where({ group_id: groupId }).whereNull('deleted_at');
  const expected = new Map<string, { share: number; paid: number; expenses: number; involved: number }>();
  for (const e of rows) {
    const at = new Date(e.occurred_at);
    const month = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
    const row = (member: string) => {
      const key = [e.currency, month, e.category_id ?? '', member].join('|');
      const found = expected.get(key) ?? { share: 0, paid: 0, expenses: 0, involved: 0 };
      expected.set(key, found);
      return found;
    };
    const shares = e.shares as { userId: string; owed: number }[];
    const payers = e.paid_by as { userId: string; amount: number }[];
    row('').expenses += 1;
    for (const s of shares) row(s.userId).share += s.owed;
    for (const p of payers) row(p.userId).paid += p.amount;
    for (const m of new Set([...shares, ...payers].map((x) => x.userId))) row(m).expenses += 1;
    for (const m of new Set(e.involved_ids as string[])) row(m).involved += 1;
  }
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
  return {
    stored: stored
      .map((r) => ({
        key: [r.currency, new Date(r.month).getTime(), r.category_id, r.member].join('|'),
        share: Number(r.share),
        paid: Number(r.paid),
        expenses: Number(r.expenses),
        involved: Number(r.involved),
      }))
      .sort(byKey),
    expected: [...expected].map(([key, v]) => ({ key, ...v })).sort(byKey),
  };
}
