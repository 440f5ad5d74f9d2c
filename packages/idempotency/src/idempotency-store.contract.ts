import { randomUUID } from 'node:crypto';
import type { IdempotencyStore, StoredResponse } from './idempotency-store';

/**
 * One behavioural suite for every IdempotencyStore adapter (in-memory and Redis), the way
 * socket.io-redis-adapter runs one suite against every client. Not a test file itself.
 */
export function describeIdempotencyStoreContract(
  name: string,
  setup: () => Promise<{ store: IdempotencyStore; teardown(): Promise<void> }>,
): void {
  describe(`${name} idempotency store contract`, () => {
    let store: IdempotencyStore;
    let teardown: () => Promise<void>;
    beforeAll(async () => {
      ({ store, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown();
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

    it('claims an unseen scope exactly once', async () => {
      const s = scope();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.claim(s, 'fp', `owner-${i}`, 5_000)),
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
      await store.claim(s, 'fp-a', 'me', 5_000);
      expect(await store.complete(s, 'me', 'fp-a', response, 60_000)).toBe(true);
      expect(await store.claim(s, 'fp-a', 'other', 5_000)).toEqual({
        claimed: false,
        entry: { state: 'completed', fingerprint: 'fp-a', response },
      });
      expect(await store.claim(s, 'fp-b', 'other', 5_000)).toEqual({
        claimed: false,
        entry: { state: 'completed', fingerprint: 'fp-a', response },
      });
    });

    it('frees the scope when the owner releases it', async () => {
      const s = scope();
      await store.claim(s, 'fp', 'me', 5_000);
      expect(await store.release(s, 'me')).toBe(true);
      expect(await store.claim(s, 'fp', 'next', 5_000)).toEqual({ claimed: true });
    });

    it('lets only the owner extend, complete or release a claim', async () => {
      const s = scope();
      await store.claim(s, 'fp', 'me', 5_000);
      expect(await store.extend(s, 'intruder', 5_000)).toBe(false);
      expect(await store.complete(s, 'intruder', 'fp', response, 60_000)).toBe(false);
      expect(await store.release(s, 'intruder')).toBe(false);
      const seen = await store.claim(s, 'fp', 'probe', 5_000);
      expect(seen).toEqual({
        claimed: false,
        entry: { state: 'in_progress', fingerprint: 'fp', owner: 'me' },
      });
    });

    it('cannot release or overwrite a completed record, even as its former owner', async () => {
      const s = scope();
      await store.claim(s, 'fp', 'me', 5_000);
      await store.complete(s, 'me', 'fp', response, 60_000);
      expect(await store.release(s, 'me')).toBe(false);
      expect(await store.complete(s, 'me', 'fp', { ...response, status: 500 }, 60_000)).toBe(false);
      const seen = await store.claim(s, 'fp', 'probe', 5_000);
      expect(seen).toEqual({ claimed: false, entry: { state: 'completed', fingerprint: 'fp', response } });
    });

    it('lets an expired lease be taken over, after which the first owner can change nothing', async () => {
      const s = scope();
      await store.claim(s, 'fp', 'slow', 50);
      await sleep(120);
      expect(await store.claim(s, 'fp', 'second', 5_000)).toEqual({ claimed: true });
      expect(await store.extend(s, 'slow', 5_000)).toBe(false);
      expect(await store.complete(s, 'slow', 'fp', response, 60_000)).toBe(false);
      expect(await store.release(s, 'slow')).toBe(false);
      expect(await store.complete(s, 'second', 'fp', response, 60_000)).toBe(true);
    });

    it('keeps a lease alive while it is extended', async () => {
      const s = scope();
      await store.claim(s, 'fp', 'me', 150);
      for (let i = 0; i < 4; i++) {
        await sleep(60);
        expect(await store.extend(s, 'me', 150)).toBe(true);
      }
      expect((await store.claim(s, 'fp', 'other', 150)).claimed).toBe(false);
    });

    it('forgets a completed response after its retention period', async () => {
      const s = scope();
      await store.claim(s, 'fp', 'me', 5_000);
      await store.complete(s, 'me', 'fp', response, 80);
      expect((await store.claim(s, 'fp', 'early', 5_000)).claimed).toBe(false);
      await sleep(160);
      expect(await store.claim(s, 'fp', 'late', 5_000)).toEqual({ claimed: true });
    });

    it('keeps scopes apart', async () => {
      const a = scope();
      const b = scope();
      await store.claim(a, 'fp', 'me', 5_000);
      await store.complete(a, 'me', 'fp', response, 60_000);
      expect(await store.claim(b, 'fp', 'me', 5_000)).toEqual({ claimed: true });
    });
  });
}
