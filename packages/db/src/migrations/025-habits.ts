import type { Knex } from 'knex';

/**
 * The smaller habits (API.md §3, §4, §6, issue 34 item 6).
 *
 * - `groups.archived_at`: an archived group refuses every write (`409 group_archived`) but stays
 *   readable; `groups.simplify_debts`: which debts clients show, the simplified or the original ones.
 * - `pair_balances`: the original (pairwise, unsimplified) debts, kept like `balances` by every money
 *   write: per group, currency and pair of ids (`low_id < high_id`), `net` is what `low_id` owes
 *   `high_id` (negative: what `high_id` owes `low_id`). Ids are stored as the records name them; a
 *   claimed pending member is resolved to its account when read (as records are). Reading them
 *   costs the group's non-zero pairs, never its history.
 *
 * Existing groups get their pairs from their live records here, by the rule of the write path
 * (`pairwiseDebts` in @tally/domain): the payers and the shares of one expense laid end to end on
 * [0, |amount|) in the order stored, each participant owes each payer the overlap of their two
 * intervals; a settlement from A to B lowers A's debt to B by its amount.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table groups add column archived_at timestamptz,
                                     add column simplify_debts boolean not null default true`);
  await knex.raw(`
    create table pair_balances (
      group_id text not null references groups (id) on delete cascade,
      currency text not null,
      low_id text not null,
      high_id text not null,
      net bigint not null,
      primary key (group_id, currency, low_id, high_id),
      check (low_id < high_id)
    )`);
  await knex.raw(`
    with payers as (
      select e.id, e.group_id, e.currency, sign(e.amount) as sign, p.value ->> 'userId' as user_id,
             abs((p.value ->> 'amount')::bigint) as len,
             sum(abs((p.value ->> 'amount')::bigint)) over (partition by e.id order by p.ord) as upto
        from expenses e cross join lateral jsonb_array_elements(e.paid_by) with ordinality p(value, ord)
       where e.deleted_at is null),
    sharers as (
      select e.id, s.value ->> 'userId' as user_id, abs((s.value ->> 'owed')::bigint) as len,
             sum(abs((s.value ->> 'owed')::bigint)) over (partition by e.id order by s.ord) as upto
        from expenses e cross join lateral jsonb_array_elements(e.shares) with ordinality s(value, ord)
       where e.deleted_at is null),
    debts as (
      select p.group_id, p.currency, s.user_id as debtor, p.user_id as creditor,
             p.sign * (least(p.upto, s.upto) - greatest(p.upto - p.len, s.upto - s.len)) as amount
        from payers p join sharers s on s.id = p.id
       where least(p.upto, s.upto) > greatest(p.upto - p.len, s.upto - s.len) and s.user_id <> p.user_id
      union all
      select group_id, currency, from_user_id, to_user_id, -amount from settlements where deleted_at is null)
    insert into pair_balances (group_id, currency, low_id, high_id, net)
    select group_id, currency, least(debtor, creditor), greatest(debtor, creditor),
           sum(case when debtor < creditor then amount else -amount end)
      from debts
     group by group_id, currency, least(debtor, creditor), greatest(debtor, creditor)
    having sum(case when debtor < creditor then amount else -amount end) <> 0`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists pair_balances');
  await knex.raw(
    'alter table groups drop column if exists archived_at, drop column if exists simplify_debts',
  );
}
