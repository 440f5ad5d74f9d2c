/**
 * The outbox across SIGKILLs: the SDK runs in a child Node process (outbox-child.ts, bundled with
 * esbuild) with the file storage, behind a fault-injecting proxy in front of a real Tally (PostgreSQL
 * and Redis). The child plays 300 writes (expense creates, edits, deletes and settlements across
 * three groups) while this test SIGKILLs it at random moments, some of them right after an attempt
 * left and before its answer came back, and starts it again on the same outbox file. In the end every
 * write the app made exists exactly once on the server, in the order it was made within its group,
 * and the outbox file is empty.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { type GroupEvent, MemoryTokenStore, TallyClient } from '../../packages/client/src';
import { seededRandom, testSeed, withSeed } from '../support/random';
import { redisUrl } from '../support/test-database';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { FaultProxy } from './fault-proxy';
import type { ChildConfig } from './outbox-child';
import { checkGroupLog, makePlan, type PlanWorld } from './outbox-plan';

const WRITES = 300;
const GROUPS = 3;
/**
 * Every kill lands after a number of sends or of writes done (at most 10 and 5), so all of them land
 * before the plan's end: the count is exact, however fast the machine.
 */
const KILLS = 16;
/** `TEST_SEED` (or `OUTBOX_KILL_SEED`) replays a run; a failure's message names the seed. */
const SEED = process.env.OUTBOX_KILL_SEED ? Number(process.env.OUTBOX_KILL_SEED) : testSeed();

type Run = {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Writes with an attempt sent and no answer yet (send without a later retry/settled). */
  inFlight: Set<number>;
  /** The writes in flight when this test killed the process. */
  killedInFlight?: number[];
  lines: string[];
};

describe('the outbox across SIGKILLs of the app process', () => {
  let t: TestServer;
  let proxy: FaultProxy;
  let ada: TestUser;
  let world: PlanWorld;
  let dir: string;
  let childJs: string;
  /** The child process running now (killed in afterAll if the test ends early). */
  let current: ChildProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tally-outbox-kill-'));
    childJs = path.join(dir, 'child.js');
    await build({
      entryPoints: [path.join(__dirname, 'outbox-child.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      outfile: childJs,
      external: ['bufferutil', 'utf-8-validate'],
      logLevel: 'warning',
    });
    t = await startTestServer({ env: { REDIS_URL: redisUrl(), RATE_LIMIT_PER_MINUTE: '1000000' } });
    ada = await t.register('Ada');
    const bob = await t.register('Bob');
    const cy = await t.register('Cy');
    const groupIds: string[] = [];
    for (let g = 0; g < GROUPS; g++) groupIds.push(await t.createGroup(ada, [bob, cy], { name: `G${g}` }));
    world = { me: ada.id, others: [bob.id, cy.id], groupIds };
    proxy = await FaultProxy.start({
      target: t.url,
      weights: { forward: 55, delay: 25, slow: 4, 'reset-before': 8, 'drop-response': 8 },
      delayMs: [2, 40],
      seed: SEED,
    });
  });
  afterAll(async () => {
    if (current && current.exitCode === null && current.signalCode === null) current.kill('SIGKILL');
    await proxy?.close();
    await t?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`makes ${WRITES} writes through ${KILLS} kills: each exactly once, in per-group order, outbox empty`, async () => {
    await withSeed(SEED, async () => {
      const plan = makePlan(SEED, WRITES, GROUPS);
      const random = seededRandom(SEED + 1);
      const outboxPath = path.join(dir, 'outbox.json');
      const made = new Set<number>();
      const ids: Record<string, string> = {};
      let kills = 0;
      let killsInFlight = 0;
      let runs = 0;
      const faults: string[] = [];
      /** Writes with an attempt in flight at a kill, and those of them answered later from their key's record. */
      const cutOff = new Set<number>();
      const replayedAfterKill = new Set<number>();

      const spawnChild = (): Run => {
        const config: ChildConfig = {
          baseUrl: proxy.url,
          wsUrl: t.url,
          accessToken: ada.accessToken,
          refreshToken: ada.refreshToken,
          world,
          plan,
          outboxPath,
          from: made.size === 0 ? 0 : Math.max(...made) + 1,
          ids,
          seed: SEED + runs,
          paceMs: 12,
        };
        const configPath = path.join(dir, `config-${runs}.json`);
        writeFileSync(configPath, JSON.stringify(config));
        runs++;
        const child = spawn(process.execPath, [childJs, configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
        current = child;
        const run: Run = {
          child,
          exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
          inFlight: new Set(),
          lines: [],
        };
        let buffered = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          for (const line of lines) onLine(run, line);
        });
        child.stderr?.on('data', (chunk: Buffer) => faults.push(chunk.toString()));
        return run;
      };

      /**
       * Per run: `onSend` lets a kill wait for the next attempt to leave, `onSettled` for the next
       * write whose entry left the outbox.
       */
      let onSend: ((run: Run) => void) | undefined;
      let onSettled: ((run: Run) => void) | undefined;
      const onLine = (run: Run, line: string) => {
        run.lines.push(line);
        const [what, a, b] = line.split(' ');
        const write = Number(a);
        switch (what) {
          case 'made':
            made.add(write);
            if (b) ids[String(write)] = b;
            break;
          case 'send':
            run.inFlight.add(write);
            onSend?.(run);
            break;
          case 'settled':
            if (cutOff.has(write) && line.endsWith(' replayed')) replayedAfterKill.add(write);
            run.inFlight.delete(write);
            onSettled?.(run);
            break;
          case 'retry':
            run.inFlight.delete(write);
            break;
          case 'rejected':
          case 'error':
          case 'fatal':
            faults.push(line);
            break;
        }
      };

      const kill = (run: Run) => {
        if (run.child.exitCode !== null || run.child.signalCode !== null) return;
        run.killedInFlight = [...run.inFlight];
        run.child.kill('SIGKILL');
      };

      let finished = false;
      while (!finished) {
        const run = spawnChild();
        if (kills < KILLS) {
          // Half of the kills land right after an attempt has left (before its answer, most of the time:
          // the proxy delays answers by a few ms); the others at a random moment of the run, after
          // a random number of writes done.
          const timers: ReturnType<typeof setTimeout>[] = [];
          if (random() < 0.5) {
            const afterSends = 1 + Math.floor(random() * 10);
            let sends = 0;
            onSend = (r) => {
              if (r !== run || ++sends < afterSends) return;
              onSend = undefined;
              timers.push(setTimeout(() => kill(run), Math.floor(random() * 4)));
            };
          } else {
            // At a moment counted in writes done, not in ms: a fast machine must not finish the plan
            // before the kills are done (each run gets a handful of writes through).
            const afterSettled = 1 + Math.floor(random() * 5);
            let seen = 0;
            onSettled = (r) => {
              if (r !== run || ++seen < afterSettled) return;
              onSettled = undefined;
              timers.push(setTimeout(() => kill(run), Math.floor(random() * 20)));
            };
          }
          const { code, signal } = await run.exited;
          for (const timer of timers) clearTimeout(timer);
          onSend = undefined;
          onSettled = undefined;
          if (signal === 'SIGKILL') {
            kills++;
            if (run.killedInFlight && run.killedInFlight.length > 0) {
              killsInFlight++;
              for (const write of run.killedInFlight) cutOff.add(write);
            }
            continue;
          }
          finished = code === 0 && run.lines.includes('drained');
          if (!finished)
            throw new Error(`child exited ${code} ${signal}:\n${run.lines.slice(-20).join('\n')}`);
        } else {
          const { code } = await run.exited;
          finished = code === 0 && run.lines.includes('drained');
          if (!finished)
            throw new Error(`child exited ${code}:\n${run.lines.slice(-20).join('\n')}\n${faults}`);
        }
      }
      // Requests the proxy still holds (`slow`) reach the server now: replays, never new writes.
      await proxy.drain();

      expect(faults).toEqual([]);
      expect(kills).toBe(KILLS);
      expect(killsInFlight).toBeGreaterThanOrEqual(5);
      expect([...made].sort((a, b) => a - b)).toEqual(plan.map((w) => w.i));

      // The outbox file is empty.
      const stored = JSON.parse(readFileSync(outboxPath, 'utf8')) as { entries: unknown[] };
      expect(stored.entries).toEqual([]);

      // Every group's event log holds each of its writes exactly once, in the order they were made.
      const reader = new TallyClient({
        baseUrl: t.url,
        tokenStore: new MemoryTokenStore({ accessToken: ada.accessToken, refreshToken: ada.refreshToken }),
      });
      const idMap = new Map(Object.entries(ids).map(([k, v]) => [Number(k), v]));
      for (let g = 0; g < GROUPS; g++) {
        const events: GroupEvent[] = [];
        for await (const event of reader.groups.allEvents(world.groupIds[g] as string, { limit: 100 })) {
          events.push(event);
        }
        const { problems, logged } = checkGroupLog(plan, g, idMap, events);
        expect(problems).toEqual([]);
        expect(logged.length).toBe(plan.filter((w) => w.group === g).length);
      }

      // The rows agree: one expense per create (the deleted ones marked), one settlement per settle write.
      const knex = t.db!.knex;
      const expenseRows = await knex('expenses')
        .whereIn('group_id', world.groupIds)
        .select('id', 'deleted_at');
      const creates = plan.filter((w) => w.kind === 'create');
      const deletes = plan.filter((w) => w.kind === 'delete');
      expect(expenseRows).toHaveLength(creates.length);
      expect(new Set(expenseRows.map((r) => r.id))).toEqual(new Set(creates.map((w) => ids[String(w.i)])));
      expect(expenseRows.filter((r) => r.deleted_at !== null)).toHaveLength(deletes.length);
      const settlementRows = await knex('settlements').whereIn('group_id', world.groupIds).select('note');
      expect(settlementRows.map((r) => r.note).sort()).toEqual(
        plan
          .filter((w) => w.kind === 'settle')
          .map((w) => `w${w.i}`)
          .sort(),
      );

      // Every create went out as a PUT at the id made on the device; nothing was POSTed to /v1/expenses.
      expect(proxy.log.some((r) => r.method === 'POST' && r.path === '/v1/expenses')).toBe(false);
      process.stdout.write(
        `outbox kill test (seed ${SEED}): ${WRITES} writes, ${runs} processes, ${kills} SIGKILLs ` +
          `(${killsInFlight} with an attempt in flight; ${replayedAfterKill.size} of those writes were ` +
          `answered after the restart with the recorded answer, Idempotent-Replayed), proxy ${proxy.received} requests ${JSON.stringify(proxy.counts)}\n`,
      );
    });
  }, 180_000);
});
