import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { EventBus } from './event-bus';
import { ignoredErrorsOf, type OnIgnoredError } from './ignored-error';

/** How old an event a writer's mark may be and still be found (see `flushMarks`). */
const MARK_WINDOW_MS = 60 * 60_000;

export type RelayOptions = {
  knex: Knex;
  bus: EventBus;
  logger?: Logger;
  registry?: Registry;
  /** How often unpublished events are looked for. @default 1000 */
  intervalMs?: number;
  /** An event younger than this is left to its writer's own publish. @default 1000 */
  graceMs?: number;
  /**
   * A pass that failed (`relay_pass`, each one: the next pass retries) and writers' marks that could
   * not be written (`relay_mark_published`: those events are republished, harmlessly).
   * @default a warn line on `logger` for each
   */
  onIgnoredError?: OnIgnoredError;
};

/**
 * The outbox relay. Writers publish each event's notification right after commit and mark it
 * published in batches; an event whose publish failed (Redis briefly down, the process killed
 * between commit and publish) stays unmarked, and the relay republishes it. Several relays may
 * run (one per API process): `for update skip locked` keeps them off each other's rows, and a
 * rare double publish is harmless because gateways drop duplicates by `seq`.
 */
export function createRelay(options: RelayOptions) {
  const { knex, bus, logger } = options;
  const intervalMs = options.intervalMs ?? 1000;
  const graceMs = options.graceMs ?? 1000;
  const ignored = ignoredErrorsOf(options);
  const registers = options.registry ? [options.registry] : [];
  const republished = new Counter({
    name: 'outbox_republished_total',
    help: 'Events whose notification the relay published after their writer did not',
    registers,
  });
  const backlog = new Gauge({
    name: 'outbox_backlog',
    help: 'Events not yet published, as last seen',
    registers,
  });

  let pending: string[] = [];
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  /** Passes failed since the last one that went through. */
  let failedPasses = 0;

  async function flushMarks(): Promise<void> {
    if (pending.length === 0) return;
    const ids = pending;
    pending = [];
    // `events` is partitioned by `occurred_at`: a writer's marks are for events it just wrote, so only
    // the newest partitions are searched. A mark that misses (an event older than the window) leaves it
    // to the relay, whose republish is harmless.
    await knex('events')
      .whereIn('id', ids)
      .whereNull('published_at')
      .andWhere('occurred_at', '>=', new Date(Date.now() - MARK_WINDOW_MS))
      .update({ published_at: new Date() });
  }

  async function sweep(): Promise<number> {
    await flushMarks();
    return knex.transaction(async (trx) => {
      const rows: { id: string; group_id: string; seq: number | string; occurred_at: Date | string }[] =
        await trx('events')
          .whereNull('published_at')
          .andWhere('occurred_at', '<', new Date(Date.now() - graceMs))
          .orderBy([
            { column: 'group_id', order: 'asc' },
            { column: 'seq', order: 'asc' },
          ])
          .limit(200)
          .forUpdate()
          .skipLocked()
          .select('id', 'group_id', 'seq', 'occurred_at');
      backlog.set(rows.length);
      for (const row of rows) {
        await bus.publish({ kind: 'event', groupId: row.group_id, seq: Number(row.seq), eventId: row.id });
      }
      if (rows.length > 0) {
        const times = rows.map((r) => new Date(r.occurred_at).getTime());
        await trx('events')
          .whereIn(
            'id',
            rows.map((r) => r.id),
          )
          // Only the partitions these rows are in.
          .whereBetween('occurred_at', [new Date(Math.min(...times)), new Date(Math.max(...times))])
          .update({ published_at: new Date() });
        republished.inc(rows.length);
      }
      return rows.length;
    });
  }

  return {
    /** The writer published this event: mark it (batched) so the relay leaves it alone. */
    markPublished(eventId: string): void {
      pending.push(eventId);
      flushing ??= new Promise<void>((resolve) => setTimeout(resolve, 200)).then(() =>
        flushMarks()
          .catch((err: unknown) => ignored('relay_mark_published', err))
          .finally(() => {
            flushing = undefined;
          }),
      );
    },
    /** One pass; returns how many events it republished. */
    sweep,
    start(): void {
      const loop = () => {
        running = sweep()
          .then(() => {
            if (failedPasses > 0) logger?.info({ failedPasses }, 'relay passes go through again');
            failedPasses = 0;
          })
          .catch((err: unknown) => {
            failedPasses++;
            ignored('relay_pass', err, { failedPasses });
          })
          .finally(() => {
            if (timer !== undefined) timer = setTimeout(loop, intervalMs).unref();
          });
      };
      timer = setTimeout(loop, intervalMs).unref();
    },
    async stop(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
      await flushing;
      await flushMarks().catch((err: unknown) => ignored('relay_mark_published', err));
    },
  };
}

export type Relay = ReturnType<typeof createRelay>;
