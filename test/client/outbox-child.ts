/**
 * The app process of the kill test (outbox-kill.test.ts), bundled with esbuild and run with plain
 * `node`: it plays the plan's writes through `TallyClient`'s outbox with the file storage, from the
 * write the parent says, and reports on stdout, one line each (written synchronously, so a line the
 * parent has read happened before any SIGKILL):
 *
 *   made <write> [<expenseId>]   the write is stored in the outbox (also for entries found at start)
 *   send <write>                 an attempt of its entry is about to leave
 *   retry <write>                an attempt failed without a final answer
 *   settled <write> <outcome>    its entry left the outbox
 *   drained                      every write is made and the outbox is empty
 *
 * Argument: the path of a JSON {@link ChildConfig}.
 */
import { readFileSync, writeSync } from 'node:fs';
import WebSocket from 'ws';
import { fileOutbox, MemoryTokenStore, TallyClient } from '../../packages/client/src';
import { madeFrom, makeWrite, type PlanWorld, type PlanWrite, prng } from './outbox-plan';

export type ChildConfig = {
  /** The fault proxy in front of the server. */
  baseUrl: string;
  /** The server itself, for the WebSocket (the proxy does not carry upgrades). */
  wsUrl: string;
  accessToken: string;
  refreshToken: string;
  world: PlanWorld;
  plan: PlanWrite[];
  outboxPath: string;
  /** The first write not yet reported as made. */
  from: number;
  /** Expense ids of the create writes reported so far. */
  ids: Record<string, string>;
  seed: number;
  /** Longest pause between two writes, in ms. */
  paceMs: number;
};

const say = (line: string) => {
  writeSync(1, `${line}\n`);
};

async function main() {
  const config = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as ChildConfig;
  const random = prng(config.seed);
  const tally = new TallyClient({
    baseUrl: config.baseUrl,
    tokenStore: new MemoryTokenStore({ accessToken: config.accessToken, refreshToken: config.refreshToken }),
    // Short backoff and a short per-attempt limit (which ends the proxy's `slow` holds), so the run is quick.
    retry: { baseDelayMs: 20, maxDelayMs: 250, attemptTimeoutMs: 400 },
    outbox: {
      storage: fileOutbox(config.outboxPath),
      onRejected: ({ entry, error }) =>
        say(`rejected ${madeFrom(entry).write} ${error.status} ${error.code}`),
    },
  });
  const { outbox } = tally;
  const writeOf = (entry: Parameters<typeof madeFrom>[0]) => madeFrom(entry).write;
  outbox.on('sending', ({ entry }) => say(`send ${writeOf(entry)}`));
  outbox.on('retry', ({ entry }) => say(`retry ${writeOf(entry)}`));
  outbox.on('settled', ({ entry, outcome }) =>
    say(
      `settled ${writeOf(entry)} ${outcome.type}${outcome.type === 'applied' ? ` ${outcome.status}${outcome.replayed ? ' replayed' : ''}` : ''}`,
    ),
  );
  outbox.on('error', (error) => say(`error ${String(error)}`));

  // Realtime events settle creates still in the outbox (same id).
  const realtime = tally.realtime({ WebSocket: WebSocket as never, url: config.wsUrl });
  outbox.attach(realtime);
  for (const groupId of config.world.groupIds) realtime.subscribe(groupId);

  await outbox.ready;
  const ids = new Map<number, string>(Object.entries(config.ids).map(([k, v]) => [Number(k), v]));
  let from = config.from;
  // Writes stored by a process killed before it could say so: they are made.
  for (const entry of outbox.pending()) {
    const { write, expenseId } = madeFrom(entry);
    if (expenseId) ids.set(write, expenseId);
    say(`made ${write}${expenseId ? ` ${expenseId}` : ''}`);
    from = Math.max(from, write + 1);
  }

  for (let i = from; i < config.plan.length; i++) {
    const write = config.plan[i] as PlanWrite;
    await makeWrite(outbox, config.world, write, ids);
    const id = write.kind === 'create' ? ids.get(i) : undefined;
    say(`made ${i}${id ? ` ${id}` : ''}`);
    const pause = Math.floor(random() * config.paceMs);
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
  }
  await outbox.whenIdle();
  say('drained');
  realtime.close();
  await outbox.stop();
  process.exit(0);
}

main().catch((error: unknown) => {
  say(`fatal ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
