import type { Knex } from 'knex';

/**
 * The whole schema of the first release. Money columns are bigint minor units; every change to a
 * group bumps `groups.last_seq` under the group's row lock, which both serialises writes to one
 * group and numbers its events.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('email').notNullable();
    t.text('email_normalized').notNullable().unique();
    t.text('name').notNullable();
    t.text('password_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('refresh_tokens', (t) => {
    t.text('id').primary();
    t.text('token_hash').notNullable().unique();
    t.text('family_id').notNullable().index();
    t.text('user_id').notNullable().references('users.id');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('groups', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('currency', 3).notNullable();
    t.bigInteger('last_seq').notNullable().defaultTo(0);
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('group_members', (t) => {
    t.text('group_id').notNullable().references('groups.id');
    t.text('user_id').notNullable().references('users.id');
    t.timestamp('joined_at', { useTz: true }).notNullable();
    t.primary(['group_id', 'user_id']);
    t.index(['user_id', 'joined_at']);
  });

  await knex.schema.createTable('expenses', (t) => {
    t.text('id').primary();
    t.text('group_id').notNullable().references('groups.id');
    t.text('description').notNullable();
    t.text('category');
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.jsonb('paid_by').notNullable();
    t.jsonb('split').notNullable();
    t.jsonb('shares').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.text('created_by').notNullable().references('users.id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('deleted_at', { useTz: true });
  });
  await knex.raw(
    'create index expenses_group_live_idx on expenses (group_id, occurred_at desc, id desc) where deleted_at is null',
  );

  await knex.schema.createTable('settlements', (t) => {
    t.text('id').primary();
    t.text('group_id').notNullable().references('groups.id');
    t.text('from_user_id').notNullable().references('users.id');
    t.text('to_user_id').notNullable().references('users.id');
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.text('note').notNullable().defaultTo('');
    t.text('created_by').notNullable().references('users.id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true });
  });
  await knex.raw(
    'create index settlements_group_live_idx on settlements (group_id, created_at desc, id desc) where deleted_at is null',
  );

  // Incrementally maintained nets: one row per (group, currency, user) that ever had a non-zero effect.
  await knex.schema.createTable('balances', (t) => {
    t.text('group_id').notNullable().references('groups.id');
    t.string('currency', 3).notNullable();
    t.text('user_id').notNullable();
    t.bigInteger('net').notNullable().defaultTo(0);
    t.primary(['group_id', 'currency', 'user_id']);
  });
  // How many live expenses and settlements each currency of a group has: a currency is listed in
  // the balances while it has at least one.
  await knex.schema.createTable('group_currencies', (t) => {
    t.text('group_id').notNullable().references('groups.id');
    t.string('currency', 3).notNullable();
    t.integer('live_records').notNullable().defaultTo(0);
    t.primary(['group_id', 'currency']);
  });

  // The per-group event log, written in the same transaction as the change (transactional outbox).
  await knex.schema.createTable('events', (t) => {
    t.text('id').primary();
    t.text('group_id').notNullable().references('groups.id');
    t.bigInteger('seq').notNullable();
    t.text('type').notNullable();
    t.text('actor_id').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('published_at', { useTz: true });
    t.unique(['group_id', 'seq']);
  });
  await knex.raw('create index events_unpublished_idx on events (occurred_at) where published_at is null');

  // Durable idempotency records: the unique key is what makes a money write take effect once even
  // when Redis lost its record or the process died between commit and the Redis update.
  await knex.schema.createTable('idempotency_records', (t) => {
    t.text('user_id').notNullable();
    t.text('key').notNullable();
    t.text('path').notNullable();
    t.text('fingerprint').notNullable();
    t.integer('status').notNullable();
    t.jsonb('headers').notNullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.primary(['user_id', 'key', 'path']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'idempotency_records',
    'events',
    'group_currencies',
    'balances',
    'settlements',
    'expenses',
    'group_members',
    'groups',
    'refresh_tokens',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
