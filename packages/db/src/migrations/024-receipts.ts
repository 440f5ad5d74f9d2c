import type { Knex } from 'knex';

/**
 * Receipts on file (API.md §16, issue 34): at most one per expense. The bytes live in the receipt
 * storage (a directory under `DATA_DIR`, or S3-compatible object storage), keyed by group, expense
 * and the SHA-256 of the stored file; this row says which file is the expense's now. A row goes with
 * its expense's deletion (in the same statement) and with its uploader's account deletion.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table receipts (
      expense_id text primary key references expenses (id) on delete cascade,
      group_id text not null references groups (id) on delete cascade,
      sha256 text not null,
      media_type text not null,
      bytes integer not null,
      width integer,
      height integer,
      has_thumbnail boolean not null,
      uploaded_by text not null references users (id),
      uploaded_at timestamptz not null
    )`);
  // Account deletion finds its uploader's receipts; the export reads a group's.
  await knex.raw('create index receipts_uploader on receipts (uploaded_by)');
  await knex.raw('create index receipts_group on receipts (group_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table receipts');
}
