import { hashSlot, shardedChannelOf } from '@tally/events';
import { TestSocket } from '../gateway/ws-client';
import { startRedisCluster, type ThrowawayRedisCluster } from '../support/redis-cluster';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { type Attempt, type ProcessUser, postExpense, registerUser } from './http';

/**
 * A Redis Cluster primary SIGKILLed under a stream of keyed writes. Two API processes and a gateway
 * run on a cluster of their own (3 primaries, a replica each, `cluster-node-timeout` 1 s); six
 * writers each send one group's expenses, every write retried with its key until acknowledged, one
 * in five also sent to the other API process at the same time (a duplicate in flight); four
 * WebSocket clients follow all six groups. Mid-stream the primary serving the first group's
 * sharded channel is killed; its replica is promoted, leases and counters on that shard are lost
 * with it, and writes, fan-out and gap fill carry on. Then: one effect per key, every acknowledged
 * write in PostgreSQL, and every client got every event of every group once, in order.
 */
describe('Redis Cluster failover under keyed writes', () => {
  let cluster: ThrowawayRedisCluster;
  let db: TestDatabase;
  let apis: ServerProcess[] = [];
  let gateway: ServerProcess;
  let ada: ProcessUser & { token: string };
  let bob: ProcessUser & { token: string };
  const groups: string[] = [];
  const sockets: TestSocket[] = [];

  const tokenOf = (user: ProcessUser) => user.headers.Authorization?.replace('Bearer ', '') ?? '';
  /** The samples of the metrics whose lines start with one of `prefixes`, summed over processes, by name and labels. */
  const metrics = async (processes: ServerProcess[], ...prefixes: string[]) => {
    const sums: Record<string, number> = {};
    for (const p of processes) {
      const text = await fetch(`${p.url}/metrics`).then((r) => r.text());
      for (const line of text.split('\n')) {
        if (!prefixes.some((prefix) => line.startsWith(prefix))) continue;
        const at = line.lastIndexOf(' ');
        const name = line.slice(0, at).replace(/^idempotency_outcomes_total/, '');
        sums[name] = (sums[name] ?? 0) + Number(line.slice(at + 1));
      }
    }
    return JSON.stringify(sums);
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    [cluster, db] = await Promise.all([
      startRedisCluster({ masters: 3, replicasPerMaster: 1, nodeTimeoutMs: 1000 }),
      createTestDatabase(),
    ]);
    const env = {
      DATABASE_URL: db.url,
      REDIS_CLUSTER_NODES: cluster.nodes,
      WS_HEARTBEAT_MS: '1000',
      SHUTDOWN_TIMEOUT_SECONDS: '2',
    };
    [gateway, ...apis] = await Promise.all([
      spawnServer({ ...env, ROLE: 'gateway' }),
      spawnServer({ ...env, ROLE: 'api' }),
      spawnServer({ ...env, ROLE: 'api' }),
    ]);
    const api = apis[0] as ServerProcess;
    const a = await registerUser(api.url, 'Ada');
    const b = await registerUser(api.url, 'Bob');
    ada = { ...a, token: tokenOf(a) };
    bob = { ...b, token: tokenOf(b) };
    for (let i = 0; i < 6; i++) {
      const group = await fetch(`${api.url}/v1/groups`, {
        method: 'POST',
        headers: { ...ada.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `Failover ${i}` }),
      }).then((r) => r.json() as Promise<{ id: string }>);
      const added = await fetch(`${api.url}/v1/groups/${group.id}/members`, {
        method: 'POST',
        headers: { ...ada.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ userId: bob.id }),
      });
      expect(added.status).toBe(201);
      groups.push(group.id);
    }
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all([...apis, gateway].filter(Boolean).map((p) => p.kill('SIGKILL')));
    await db?.drop();
    await cluster?.stop();
  });

  it('loses no acknowledged write, makes no duplicate effect, and delivers every event in order', async () => {
    // Four connections, each following all six groups from their current seq.
    const from = new Map<TestSocket, Map<string, number>>();
    for (const user of [ada, bob, ada, bob]) {
      const socket = await TestSocket.open(gateway.url, user.token);
      sockets.push(socket);
      await socket.next((m) => m.type === 'welcome');
      const starts = new Map<string, number>();
      for (const groupId of groups) {
        socket.send({ type: 'subscribe', id: groupId, groupId });
        const subscribed = await socket.next((m) => m.type === 'subscribed' && m['groupId'] === groupId);
        starts.set(groupId, subscribed['seq'] as number);
      }
      from.set(socket, starts);
    }

    const acked = new Map<string, string>(); // key -> expense id
    const bodies = new Map<string, object>();
    const keysOf = new Map<string, string[]>(); // group -> its keys
    const outcomes: Record<string, number> = {};
    const count = (what: string) => {
      outcomes[what] = (outcomes[what] ?? 0) + 1;
    };
    const problems: string[] = [];
    let stop = false;

    /** One logical write: its key, sent (and resent) until a 201 says what it did. */
    const send = async (api: number, key: string, body: object): Promise<string> => {
      for (let attempt = 0; ; attempt++) {
        // Keys are per user: every attempt of a write is Ada's.
        const result: Attempt = await postExpense(
          (apis[(api + attempt) % 2] as ServerProcess).url,
          ada,
          key,
          body,
        );
        const status = result.status;
        if (status === 201 && 'id' in result && result.id) {
          count(result.replayed ? 'replayed' : 'created');
          return result.id;
        }
        count(String(status));
        // 409: a copy of this request holds the key; 503: a dependency is failing over. Both: again.
        if (status !== 409 && status !== 503 && status !== 'network-error') {
          problems.push(`${key}: answered ${status}`);
          if (problems.length > 20) throw new Error(problems.join('\n'));
        }
        await sleep(status === 409 ? 20 : 100);
      }
    };
    const writer = async (groupId: string, index: number) => {
      const keys: string[] = [];
      keysOf.set(groupId, keys);
      for (let i = 0; !stop; i++) {
        const key = `failover-${groupId}-${i}`;
        keys.push(key);
        const body = {
          groupId,
          description: `write ${i}`,
          amount: 100 + i,
          paidBy: i % 2 === 0 ? ada.id : bob.id,
          split: { type: 'equal', between: [ada.id, bob.id] },
        };
        bodies.set(key, body);
        const ids = await Promise.all(
          // One write in five is also in flight through the other API process at the same time.
          (i % 5 === 0 ? [index, index + 1] : [index]).map((api) => send(api, key, body)),
        );
        if (new Set(ids).size !== 1) problems.push(`${key}: two answers ${ids.join(' ')}`);
        acked.set(key, ids[0] as string);
      }
    };

    const writers = groups.map((groupId, index) => writer(groupId, index));
    try {
      await until(() => acked.size >= 30, 'writes before the kill');
      const victim = await cluster.masterOfSlot(hashSlot(shardedChannelOf(groups[0] as string)));
      const killedAt = Date.now();
      const ackedAtKill = acked.size;
      await cluster.kill(victim);
      await cluster.waitHealthy();
      const promotedAfterMs = Date.now() - killedAt;
      const ackedAtPromotion = acked.size;
      await until(() => acked.size >= ackedAtPromotion + 60, 'writes after the failover');
      stop = true;
      await Promise.all(writers);
      // Every key once more, as a client retrying after the outage would: the keys recorded on the
      // killed shard are gone from Redis, so those replays come from PostgreSQL's durable record.
      const keys = [...acked.keys()];
      await Promise.all(
        Array.from({ length: 6 }, async (_, lane) => {
          for (let i = lane; i < keys.length; i += 6) {
            const key = keys[i] as string;
            let result: Attempt;
            // 409 in_progress: the lease of an attempt whose completion was lost with the shard (or
            // timed out while it failed over) outlives it until IDEMPOTENCY_LEASE_SECONDS; after
            // that the key is answered from PostgreSQL. A client retries, and so does this one.
            for (let attempt = 0; ; attempt++) {
              result = await postExpense(
                (apis[(i + attempt) % 2] as ServerProcess).url,
                ada,
                key,
                bodies.get(key) as object,
              );
              count(`again ${result.status}`);
              if (result.status !== 409 || attempt > 100) break;
              await sleep(200);
            }
            if (
              result.status !== 201 ||
              !('id' in result) ||
              result.id !== acked.get(key) ||
              !result.replayed
            )
              problems.push(`${key} again: ${JSON.stringify(result)}, first ${acked.get(key)}`);
          }
        }),
      );
      process.stderr.write(
        `[failover] primary :${victim} SIGKILLed after ${ackedAtKill} writes, replica promoted ${promotedAfterMs} ms later ` +
          `(${ackedAtPromotion - ackedAtKill} writes acknowledged meanwhile); ${acked.size} writes in all; ` +
          `responses ${JSON.stringify(outcomes)}; API ${await metrics(apis, 'idempotency_outcomes_total')}; ` +
          `gateway ${await metrics([gateway], 'ws_gap_fills_total', 'ws_log_polls_total', 'ws_messages_sent_total{type="event"}')}\n`,
      );
    } finally {
      stop = true;
      await Promise.allSettled(writers);
    }
    expect(problems).toEqual([]);

    // PostgreSQL holds exactly one expense per key: each acknowledged, none twice, none unasked for.
    const rows = await db
      .knex('expenses')
      .whereIn('group_id', groups)
      .select('id', 'group_id', 'description');
    expect(rows).toHaveLength(acked.size);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(acked.values()));
    for (const [groupId, keys] of keysOf) {
      const descriptions = rows.filter((r) => r.group_id === groupId).map((r) => r.description);
      expect(descriptions.sort()).toEqual(keys.map((_, i) => `write ${i}`).sort());
    }

    // Every connection gets every event of every group, once and in order (the ones published while
    // the shard was failing over come from the log).
    const logs = new Map<string, { id: string; seq: number }[]>();
    for (const groupId of groups) {
      logs.set(
        groupId,
        (await db.knex('events').where({ group_id: groupId }).orderBy('seq').select('id', 'seq')).map(
          (e) => ({
            id: e.id as string,
            seq: Number(e.seq),
          }),
        ),
      );
    }
    for (const socket of sockets) {
      for (const groupId of groups) {
        const log = (logs.get(groupId) ?? []).filter((e) => e.seq > (from.get(socket)?.get(groupId) ?? 0));
        const last = log.at(-1)?.seq ?? 0;
        await until(() => socket.seqs(groupId).at(-1) === last, `events up to ${last} of ${groupId}`);
        const got = socket.all('event', groupId).map((m) => ({
          id: (m['event'] as { id: string }).id,
          seq: m['seq'] as number,
        }));
        expect(got).toEqual(log);
      }
    }
    expect(sockets.every((s) => s.closedWith === undefined)).toBe(true);
  }, 180_000);
});
