import type { PresenceStore } from './presence-store';

/** One suite for both presence stores. Not a test file itself. */
export function describePresenceStoreContract(
  name: string,
  setup: () => Promise<{ store: PresenceStore; teardown(): Promise<void> }>,
): void {
  describe(`${name} presence store contract`, () => {
    let store: PresenceStore;
    let teardown: () => Promise<void>;
    beforeAll(async () => {
      ({ store, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown();
    });
    const group = () => `grp_${Math.random().toString(36).slice(2)}`;

    it('lists each online user once, sorted, however many connections they have', async () => {
      const g = group();
      await store.touch(g, 'c1', 'usr_b', 5_000);
      await store.touch(g, 'c2', 'usr_a', 5_000);
      await store.touch(g, 'c3', 'usr_b', 5_000);
      expect(await store.online(g)).toEqual(['usr_a', 'usr_b']);
    });

    it('drops a user when their last connection is removed', async () => {
      const g = group();
      await store.touch(g, 'c1', 'usr_a', 5_000);
      await store.touch(g, 'c2', 'usr_a', 5_000);
      await store.remove(g, 'c1');
      expect(await store.online(g)).toEqual(['usr_a']);
      await store.remove(g, 'c2');
      expect(await store.online(g)).toEqual([]);
    });

    it('expires entries that are not refreshed, and keeps refreshed ones', async () => {
      // Both stores judge an entry by Date.now() against its expiry: a clock of the test's makes that
      // exact. Redis's own expiry of the key (twice the TTL, in real time) is far off.
      let now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
      try {
        const g = group();
        await store.touch(g, 'dead', 'usr_dead', 10_000);
        await store.touch(g, 'live', 'usr_live', 10_000);
        for (let i = 0; i < 3; i++) {
          now += 6_000;
          await store.touch(g, 'live', 'usr_live', 10_000);
        }
        expect(await store.online(g)).toEqual(['usr_live']);
        now += 9_999;
        expect(await store.online(g)).toEqual(['usr_live']);
        now += 1;
        expect(await store.online(g)).toEqual([]);
      } finally {
        clock.mockRestore();
      }
    });

    it('keeps groups apart', async () => {
      const a = group();
      const b = group();
      await store.touch(a, 'c1', 'usr_a', 5_000);
      expect(await store.online(b)).toEqual([]);
    });
  });
}
