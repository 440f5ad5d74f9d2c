import { randomUUID } from 'node:crypto';
import type { IdempotencyStore, LeaseOwner, StoredResponse } from './idempotency-store';

/** A process sharing the store, as the contract sees it: its id, and a way to kill it. */
export type ContractProcess = {
  processId: string;
  /** Kills the process (no goodbye: its liveness mark is left to lapse); resolves once it counts as dead. */
  kill(): Promise<void>;
};

export type ContractSetup = {
  store: IdempotencyStore;
  /** Starts another live process sharing `store` (its own liveness heartbeat). */
  spawnProcess(): Promise<ContractProcess>;
  teardown(): Promise<void>;
};

/**
 * One behavioural suite for every IdempotencyStore adapter (in-memory and Redis), the way
 * socket.io-redis-adapter runs one suite against every client. Not a test file itself.
 */
export function describeIdempotencyStoreContract(name: string, setup: () => Promise<ContractSetup>): void {
  describe(`${name} idempotency store contract`, () => {
    let store: IdempotencyStore;
    let spawnProcess: () => Promise<ContractProcess>;
    let teardown: () => Promise<void>;
    /** The process of every owner below unless a test says otherwise; alive throughout. */
    let live: ContractProcess;
    beforeAll(async () => {
      ({ store, spawnProcess, teardown } = await setup());
      live = await spawnProcess();
    });
    afterAll(async () => {
      await teardown();
    });
    const own = (token: string, process: ContractProcess = live): LeaseOwner => ({
      token,
      processId: process.processId,
    });

    const scope = () => `scope-${randomUUID()}`;
    const response: StoredResponse = {
      status: 201,
      headers: {
        Location: '/v1/expenses/exp_1',
        ETag: '"v1"',
        'Content-Type': 'application/json; charset=utf-8',
      },
      body: '{"id":"exp_1"}',
    };
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /**
     * Runs `attempt` with a lifetime of 200 ms, then 400, 800… until one run ends within its lifetime,
     * and returns what that run saw and its lifetime: what a record of that lifetime shows before it
     * ends, checked however slow this machine is (a sleep, on the other hand, only ever lasts longer).
     */
    const withinLifetime = async <T>(
      attempt: (ms: number) => Promise<T>,
    ): Promise<{ ms: number; seen: T }> => {
      for (let ms = 200; ; ms *= 2) {
        const started = Date.now();
        const seen = await attempt(ms);
        if (Date.now() - started < ms) return { ms, seen };
      }
    };

    it('claims an unseen scope exactly once', async () => {
      const s = scope();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.claim(s, 'fp', own(`owner-${i}`), 5_000)),
      );
      expect(results.filter((r) => r.claimed)).toHaveLength(1);
      for (const r of results.filter((x) => !x.claimed)) {
        expect(r).toEqual({
          claimed: false,
          entry: expect.objectContaining({ state: 'in_progress', fingerprint: 'fp' }),
        });
      }
    });

    it('reports the completed response to later claims, with its fingerprint', async () => {
      const s = scope();
      await store.claim(s, 'fp-a', own('me'), 5_000);
      expect(await store.complete(s, 'me', 'fp-a', response, 60_000)).toBe(true);
      expect(await store.claim(s, 'fp-a', own('other'), 5_000)).toEqual({
        claimed: false,
        entry: { state: 'completed', fingerprint: 'fp-a', response },
      });
      expect(await store.claim(s, 'fp-b', own('other'), 5_000)).toEqual({
        claimed: false,
        entry: { state: 'completed', fingerprint: 'fp-a', response },
      });
    });

    it('frees the scope when the owner releases it', async () => {
      const s = scope();
      await store.claim(s, 'fp', own('me'), 5_000);
      expect(await store.release(s, 'me')).toBe(true);
      expect(await store.claim(s, 'fp', own('next'), 5_000)).toEqual({ claimed: true });
    });

    it('lets only the owner extend, complete or release a claim', async () => {
      const s = scope();
      await store.claim(s, 'fp', own('me'), 5_000);
      expect(await store.extend(s, 'intruder', 5_000)).toBe(false);
      expect(await store.complete(s, 'intruder', 'fp', response, 60_000)).toBe(false);
      expect(await store.release(s, 'intruder')).toBe(false);
      const seen = await store.claim(s, 'fp', own('probe'), 5_000);
      expect(seen).toEqual({
        claimed: false,
        entry: { state: 'in_progress', fingerprint: 'fp', owner: 'me', processId: live.processId },
      });
    });

    it('cannot release or overwrite a completed record, even as its former owner', async () => {
      const s = scope();
      await store.claim(s, 'fp', own('me'), 5_000);
      await store.complete(s, 'me', 'fp', response, 60_000);
      expect(await store.release(s, 'me')).toBe(false);
      expect(await store.complete(s, 'me', 'fp', { ...response, status: 500 }, 60_000)).toBe(false);
      const seen = await store.claim(s, 'fp', own('probe'), 5_000);
      expect(seen).toEqual({ claimed: false, entry: { state: 'completed', fingerprint: 'fp', response } });
    });

    it('lets an expired lease be taken over, after which the first owner can change nothing', async () => {
      const s = scope();
      await store.claim(s, 'fp', own('slow'), 50);
      await sleep(120);
      expect(await store.claim(s, 'fp', own('second'), 5_000)).toEqual({ claimed: true });
      expect(await store.extend(s, 'slow', 5_000)).toBe(false);
      expect(await store.complete(s, 'slow', 'fp', response, 60_000)).toBe(false);
      expect(await store.release(s, 'slow')).toBe(false);
      expect(await store.complete(s, 'second', 'fp', response, 60_000)).toBe(true);
    });

    it('keeps a lease alive while it is extended', async () => {
      const { ms, seen } = await withinLifetime(async (leaseMs) => {
        const s = scope();
        await store.claim(s, 'fp', own('me'), leaseMs);
        return { s, extended: await store.extend(s, 'me', 60_000) };
      });
      expect(seen.extended).toBe(true);
      await sleep(ms + 50); // the first lease is over
      expect((await store.claim(seen.s, 'fp', own('other'), 150)).claimed).toBe(false);
      expect(await store.extend(seen.s, 'me', 60_000)).toBe(true);
    });

    it('forgets a completed response after its retention period', async () => {
      const { ms, seen } = await withinLifetime(async (retainMs) => {
        const s = scope();
        await store.claim(s, 'fp', own('me'), 5_000);
        await store.complete(s, 'me', 'fp', response, retainMs);
        return { s, early: await store.claim(s, 'fp', own('early'), 5_000) };
      });
      expect(seen.early.claimed).toBe(false);
      await sleep(ms + 50);
      expect(await store.claim(seen.s, 'fp', own('late'), 5_000)).toEqual({ claimed: true });
    });

    it('keeps scopes apart', async () => {
      const a = scope();
      const b = scope();
      await store.claim(a, 'fp', own('me'), 5_000);
      await store.complete(a, 'me', 'fp', response, 60_000);
      expect(await store.claim(b, 'fp', own('me'), 5_000)).toEqual({ claimed: true });
    });

    // ---- leases belong to live processes ---------------------------------------------------------
    it('takes over at once a lease whose owner process died, long before the lease ends', async () => {
      const s = scope();
      const doomed = await spawnProcess();
      expect(await store.claim(s, 'fp', own('doomed', doomed), 60_000)).toEqual({ claimed: true });
      // While its owner lives, the lease stands.
      expect(await store.claim(s, 'fp', own('probe'), 60_000)).toEqual({
        claimed: false,
        entry: { state: 'in_progress', fingerprint: 'fp', owner: 'doomed', processId: doomed.processId },
      });
      await doomed.kill();
      expect(await store.claim(s, 'fp', own('heir'), 60_000)).toEqual({
        claimed: true,
        tookOverFrom: doomed.processId,
      });
      // The dead owner's token is worth nothing now; the heir's is.
      expect(await store.extend(s, 'doomed', 60_000)).toBe(false);
      expect(await store.complete(s, 'doomed', 'fp', response, 60_000)).toBe(false);
      expect(await store.release(s, 'doomed')).toBe(false);
      expect(await store.claim(s, 'fp', own('late'), 60_000)).toEqual({
        claimed: false,
        entry: { state: 'in_progress', fingerprint: 'fp', owner: 'heir', processId: live.processId },
      });
      expect(await store.complete(s, 'heir', 'fp', response, 60_000)).toBe(true);
    });

    it("lets exactly one of many concurrent claims take over a dead owner's lease", async () => {
      const s = scope();
      const doomed = await spawnProcess();
      await store.claim(s, 'fp', own('doomed', doomed), 60_000);
      await doomed.kill();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.claim(s, 'fp', own(`heir-${i}`), 60_000)),
      );
      const winners = results.filter((r) => r.claimed);
      expect(winners).toEqual([{ claimed: true, tookOverFrom: doomed.processId }]);
      for (const r of results.filter((x) => !x.claimed)) {
        expect(r).toEqual({
          claimed: false,
          entry: expect.objectContaining({ state: 'in_progress', processId: live.processId }),
        });
      }
    });

    it('keeps a completed response whatever becomes of the process that recorded it', async () => {
      const s = scope();
      const writer = await spawnProcess();
      await store.claim(s, 'fp', own('writer', writer), 60_000);
      expect(await store.complete(s, 'writer', 'fp', response, 60_000)).toBe(true);
      await writer.kill();
      expect(await store.claim(s, 'fp', own('retry'), 60_000)).toEqual({
        claimed: false,
        entry: { state: 'completed', fingerprint: 'fp', response },
      });
    });

    it("does not take over a live owner's lease when another process dies", async () => {
      const s = scope();
      const bystander = await spawnProcess();
      await store.claim(s, 'fp', own('holder'), 60_000);
      await bystander.kill();
      expect(await store.claim(s, 'fp', own('retry'), 60_000)).toEqual({
        claimed: false,
        entry: { state: 'in_progress', fingerprint: 'fp', owner: 'holder', processId: live.processId },
      });
    });
  });
}
