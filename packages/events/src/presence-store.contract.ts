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
      const g = group();
      await store.touch(g, 'dead', 'usr_dead', 80);
      await store.touch(g, 'live', 'usr_live', 80);
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await store.touch(g, 'live', 'usr_live', 80);
      }
      expect(await store.online(g)).toEqual(['usr_live']);
    });

    it('keeps groups apart', async () => {
      const a = group();
      const b = group();
      await store.touch(a, 'c1', 'usr_a', 5_000);
      expect(await store.online(b)).toEqual([]);
    });
  });
}
