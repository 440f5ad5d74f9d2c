import type { Knex } from 'knex';
import { queueNotices } from './delivery-queue';
import { deepLink, formatMoney } from './notification-content';
import { withDefaults } from './notification-settings';

/** Users one pass looks at. */
const USERS_PER_PASS = 100;

/** The ISO 8601 week of `date` (UTC), `2026-W48`: a digest's id, one per user and week. */
export function isoWeekOf(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday); // the Thursday of the week names its year
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

type GroupLine = {
  id: string;
  name: string;
  nets: [string, number | string][] | null;
  added: number | string;
};

/**
 * The weekly digest (API.md §13.4): once per ISO week (UTC), each active user with a confirmed
 * email who is in a group gets one mail listing their groups, what they owe or are owed in each
 * currency and how many expenses were added in the last 7 days. Its source id is `digest:<week>`:
 * the unique delivery index makes it once per user and week whichever process queues it; a user
 * who turned the digest off gets a `skipped` row, so the week's passes do not look at them again.
 */
export function createWeeklyDigest(deps: { knex: Knex; appUrl: () => string; now?: () => Date }) {
  const { knex } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    /** Queues the digests of up to 100 users not yet handled this week; answers how many it handled. */
    async pass(): Promise<number> {
      const at = now();
      const source = `digest:${isoWeekOf(at)}`;
      const users: { id: string; settings: unknown }[] = await knex('users as u')
        .leftJoin('notification_settings as s', 's.user_id', 'u.id')
        .where('u.status', 'active')
        .whereNotNull('u.email_verified_at')
        .whereExists(knex('group_members as m').whereRaw('m.user_id = u.id'))
        .whereNotExists(
          knex('notification_deliveries as d').whereRaw(
            "d.source_id = ? and d.user_id = u.id and d.channel = 'email'",
            [source],
          ),
        )
        .limit(USERS_PER_PASS)
        .select('u.id', 's.settings');
      for (const user of users) {
        const wanted = withDefaults(
          typeof user.settings === 'string' ? JSON.parse(user.settings) : user.settings,
        ).digest.email;
        if (!wanted) {
          await knex('notification_deliveries')
            .insert({
              source_id: source,
              user_id: user.id,
              channel: 'email',
              kind: 'digest',
              content: '{}',
              status: 'skipped',
              next_attempt_at: at,
              created_at: at,
            })
            .onConflict()
            .ignore();
          continue;
        }
        const body = await digestText(user.id, at);
        await queueNotices(knex, source, [
          {
            userId: user.id,
            kind: 'digest',
            title: `Your week on Tally (${isoWeekOf(at)})`,
            body,
            url: `${deps.appUrl().replace(/\/+$/, '')}/`,
          },
        ]);
      }
      return users.length;
    },
  };

  async function digestText(userId: string, at: Date): Promise<string> {
    const since = new Date(at.getTime() - 7 * 86_400_000);
    const { rows } = (await knex.raw(
      `select g.id, g.name,
              (select json_agg(json_build_array(b.currency, b.net) order by b.currency)
                 from balances b where b.group_id = g.id and b.user_id = m.user_id and b.net <> 0) as nets,
              (select count(*) from expenses e
                where e.group_id = g.id and e.deleted_at is null and e.created_at >= ?) as added
         from group_members m join groups g on g.id = m.group_id
        where m.user_id = ? order by g.name, g.id`,
      [since, userId],
    )) as { rows: GroupLine[] };
    const lines = rows.map((g) => {
      const nets = (typeof g.nets === 'string' ? JSON.parse(g.nets) : g.nets) as
        | [string, number | string][]
        | null;
      const money = (nets ?? []).map(([currency, net]) =>
        Number(net) > 0
          ? `you are owed ${formatMoney(Number(net), currency)}`
          : `you owe ${formatMoney(-Number(net), currency)}`,
      );
      return `- ${g.name}: ${money.length ? money.join(', ') : 'settled up'}; ${Number(g.added)} expense(s) added this week. ${deepLink(deps.appUrl(), g.id)}`;
    });
    return `Your groups this week:\n${lines.join('\n')}`;
  }
}

export type WeeklyDigest = ReturnType<typeof createWeeklyDigest>;
