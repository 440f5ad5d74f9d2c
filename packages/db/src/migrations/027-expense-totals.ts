import type { Knex } from 'knex';

/**
 * Stored totals of the statistics (API.md §14, issue 34 item 3): `expense_totals`, per group,
 * currency, month (UTC, its first instant), category (`''`: none) and member, what the live expenses
 * add up to. Member `''` is the expenses themselves: `expenses` counts them. A member's row sums their
 * shares (`share`) and what they paid (`paid`); `expenses` counts the expenses that name them in
 * their shares or payers, `involved` those whose `involved_ids` hold them (what `/v1/me/stats`
 * counts). Ids are stored as the records name them; a claimed pending member is resolved when read.
 *
 * Kept by statement-level triggers on `expenses` (transition tables), so in the statement that
 * writes the expenses, with no round trip of its own: every path that moves an expense (the write
 * path's one statement, a category's merge or delete, an import, an occurrence, a row inserted by
 * hand) moves its totals, including paths written later. A row whose counts fall to zero stays, at
 * zero (its key may come back); reads skip it. Their number is bounded by the keys ever used.
 *
 * The rows existing before are summed here from the live expenses.
 */
const CONTRIBUTIONS = `
  insert into expense_totals as t (group_id, currency, month, category_id, member, share, paid, expenses, involved)
  select x.group_id, x.currency, x.month, x.category_id, x.member,
         sum(x.share), sum(x.paid), sum(x.expenses), sum(x.involved)
    from (
      select c.group_id, c.currency, date_trunc('month', c.occurred_at at time zone 'UTC') at time zone 'UTC' as month,
             coalesce(c.category_id, '') as category_id, m.member,
             $SIGN * m.share as share, $SIGN * m.paid as paid, $SIGN * m.expenses as expenses, $SIGN * m.involved as involved
        from $ROWS c
        cross join lateral (
          select u.member, sum(u.share) as share, sum(u.paid) as paid, max(u.named) as expenses, max(u.involved) as involved
            from (select '' as member, 0::bigint as share, 0::bigint as paid, 1 as named, 0 as involved
                  union all
                  select s."userId", s.owed, 0, 1, 0 from jsonb_to_recordset(c.shares) as s("userId" text, owed bigint)
                  union all
                  select p."userId", 0, p.amount, 1, 0 from jsonb_to_recordset(c.paid_by) as p("userId" text, amount bigint)
                  union all
                  select i, 0, 0, 0, 1 from unnest(c.involved_ids) as i) u
           group by u.member) m
       where c.deleted_at is null) x
   group by x.group_id, x.currency, x.month, x.category_id, x.member
   order by x.group_id, x.currency, x.month, x.category_id, x.member
  on conflict (group_id, currency, month, category_id, member) do update
    set share = t.share + excluded.share, paid = t.paid + excluded.paid,
        expenses = t.expenses + excluded.expenses, involved = t.involved + excluded.involved`;

/** The insert that adds (`sign` 1) or takes away (−1) what the expenses of `rows` (a relation `c`) contribute. */
const contributions = (rows: string, sign: 1 | -1) =>
  CONTRIBUTIONS.replace('$ROWS', rows).replaceAll('$SIGN', String(sign));

/** The columns whose change moves an expense's totals. */
const MOVING = [
  'group_id',
  'currency',
  'occurred_at',
  'category_id',
  'shares',
  'paid_by',
  'involved_ids',
  'deleted_at',
];
const moved = (alias: string) => `(${MOVING.map((c) => `${alias}.${c}`).join(', ')})`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table expense_totals (
      group_id text not null,
      currency text not null,
      month timestamptz not null,
      category_id text not null,
      member text not null,
      share numeric not null,
      paid numeric not null,
      expenses bigint not null,
      involved bigint not null,
      primary key (group_id, month, currency, category_id, member)
    )`);
  // The conflict target's order differs from the key's: a unique index of the same columns is the
  // primary key whatever their order; the key leads with (group, month) for the reads' ranges.
  await knex.raw(`
    create function tally_expense_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${contributions('new_rows', 1)};
      elsif tg_op = 'DELETE' then
        ${contributions('old_rows', -1)};
      else
        ${contributions(`(select o.* from old_rows o join new_rows n on n.id = o.id where ${moved('o')} is distinct from ${moved('n')})`, -1)};
        ${contributions(`(select n.* from new_rows n join old_rows o on o.id = n.id where ${moved('o')} is distinct from ${moved('n')})`, 1)};
      end if;
      return null;
    end $$`);
  for (const [event, tables] of [
    ['insert', 'new table as new_rows'],
    ['update', 'old table as old_rows new table as new_rows'],
    ['delete', 'old table as old_rows'],
  ] as const) {
    await knex.raw(`create trigger expense_totals_${event} after ${event} on expenses
                      referencing ${tables} for each statement execute function tally_expense_totals()`);
  }
  await knex.raw(contributions('expenses', 1));
}

export async function down(knex: Knex): Promise<void> {
  for (const event of ['insert', 'update', 'delete'])
    await knex.raw(`drop trigger if exists expense_totals_${event} on expenses`);
  await knex.raw('drop function if exists tally_expense_totals()');
  await knex.raw('drop table if exists expense_totals');
}
