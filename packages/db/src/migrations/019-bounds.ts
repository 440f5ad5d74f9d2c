import type { Knex } from 'knex';

/**
 * Bounds (API.md §9.1, issue 30): the count of a group's live invites (`invitesPerGroup`), taken
 * before every invite is made, reads the group's unrevoked invites only. Revoked ones, which a
 * create-and-revoke loop can pile up without end, are not in the index; expired but unrevoked ones
 * are, at most `invitesPerGroup` per day (an invite lives at least a day).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index if not exists invites_group_unrevoked_idx on invites (group_id, expires_at) where revoked_at is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists invites_group_unrevoked_idx');
}
