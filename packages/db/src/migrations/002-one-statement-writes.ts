import type { Knex } from 'knex';

/**
 * A money write is ONE statement in autocommit (apps/api/src/ledger/group-change.ts): the group's
 * guarded bump, the domain rows, the balances, the event and the durable idempotency record, each
 * a CTE that inserts only when the guard bumped the group. Its last step calls this function with
 * what the guard and the record's insert returned. A guard that bumped nothing (the group moved on
 * since the writer's snapshot) wrote nothing at all: 0, the writer retries on a fresh snapshot.
 * A guard that bumped while the record's insert found a live record holding the key (a retry that
 * raced its own first attempt) must not commit: the exception undoes the whole statement, and the
 * writer replays the record. `recorded` is -1 for a write without a key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function tally_write_settled(applied bigint, recorded bigint) returns bigint
    language plpgsql as $fn$
    begin
      if applied > 0 and recorded = 0 then
        raise exception 'a live durable idempotency record holds this key' using errcode = 'TY001';
      end if;
      return applied;
    end
    $fn$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists tally_write_settled(bigint, bigint)');
}
