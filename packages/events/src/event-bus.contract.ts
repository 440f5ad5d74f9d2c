import type { BusMessage, EventBus } from './event-bus';

/** One suite for every EventBus adapter (in-process and Redis). Not a test file itself. */
export function describeEventBusContract(
  name: string,
  setup: () => Promise<{ bus: EventBus; teardown(): Promise<void> }>,
): void {
  describe(`${name} event bus contract`, () => {
    let bus: EventBus;
    let teardown: () => Promise<void>;
    beforeAll(async () => {
      ({ bus, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown();
    });

    const group = () => `grp_${Math.random().toString(36).slice(2)}`;
    const until = async (check: () => boolean, ms = 2000) => {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (Date.now() > deadline) throw new Error('condition not reached');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    // Redis SUBSCRIBE is acknowledged asynchronously: let it settle before publishing.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

    it('says it is connected once its connection is up', async () => {
      await until(() => bus.isConnected?.() ?? true);
    });

    it('delivers a group message to every listener of that group, in publish order', async () => {
      const g = group();
      const a: BusMessage[] = [];
      const b: BusMessage[] = [];
      const offA = bus.subscribe(g, (m) => a.push(m));
      const offB = bus.subscribe(g, (m) => b.push(m));
      await settle();
      for (let seq = 1; seq <= 20; seq++)
        await bus.publish({ kind: 'event', groupId: g, seq, eventId: `evt_${seq}` });
      await until(() => a.length === 20 && b.length === 20);
      expect(a.map((m) => (m.kind === 'event' ? m.seq : 0))).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      expect(b).toEqual(a);
      offA();
      offB();
    });

    it('does not deliver other groups’ messages', async () => {
      const mine = group();
      const other = group();
      const got: BusMessage[] = [];
      const off = bus.subscribe(mine, (m) => got.push(m));
      await settle();
      await bus.publish({ kind: 'event', groupId: other, seq: 1, eventId: 'evt_x' });
      await bus.publish({ kind: 'presence', groupId: mine });
      await until(() => got.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(got).toEqual([{ kind: 'presence', groupId: mine }]);
      off();
    });

    it('stops delivering after unsubscribe, and keeps delivering to remaining listeners', async () => {
      const g = group();
      const a: BusMessage[] = [];
      const b: BusMessage[] = [];
      const offA = bus.subscribe(g, (m) => a.push(m));
      const offB = bus.subscribe(g, (m) => b.push(m));
      await settle();
      offA();
      await bus.publish({ kind: 'membership', groupId: g, userId: 'usr_1' });
      await until(() => b.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(a).toEqual([]);
      offB();
      await settle();
      await bus.publish({ kind: 'membership', groupId: g, userId: 'usr_2' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(b).toHaveLength(1);
    });
  });
}
