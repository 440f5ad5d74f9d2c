import type { Knex } from 'knex';

/** Sessions of database `name` (other than the asking one) that wait for a lock right now. */
export async function lockWaiters(knex: Knex, name: string): Promise<number> {
  const result = await knex.raw(
    `select count(*)::int as n from pg_stat_activity
      where datname = ? and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
    [name],
  );
  return (result as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

export async function countRows(query: Knex.QueryBuilder): Promise<number> {
  const [row] = await query.count({ n: '*' });
  return Number((row as { n: number | string } | undefined)?.n ?? 0);
}

/** The value of one sample of the Prometheus text `metrics`, or undefined when it is absent. */
export function sampleOf(metrics: string, name: string, labels: string): number | undefined {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** What every refusal of this work looks like: problem+json `503 unavailable` with `Retry-After`. */
export function unavailableShape(retryAfter: string) {
  return {
    status: 503,
    contentType: expect.stringMatching(/^application\/problem\+json/),
    retryAfter,
    body: expect.objectContaining({ status: 503, code: 'unavailable', type: '/problems/unavailable' }),
  };
}

export const shapeOf = (res: { status: number; headers: Record<string, string>; body: unknown }) => ({
  status: res.status,
  contentType: res.headers['content-type'],
  retryAfter: res.headers['retry-after'],
  body: res.body,
});

/**
 * What the migration tests start from: users `userIds` (email `<id>@example.com`) and a group
 * `groupId` in `currency` (default EUR), inserted as rows at whatever migration the database is.
 */
export async function insertUsersAndGroup(
  knex: Knex,
  userIds: string[],
  groupId: string,
  currency = 'EUR',
): Promise<void> {
  const at = new Date();
  for (const id of userIds) {
    await knex('users').insert({
      id,
      email: `${id}@example.com`,
      email_normalized: `${id}@example.com`,
      name: id,
      password_hash: 'x',
      created_at: at,
    });
  }
  await knex('groups').insert({ id: groupId, name: 'G', currency, created_at: at, updated_at: at });
}
