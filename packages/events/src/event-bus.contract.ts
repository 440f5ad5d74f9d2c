import {
  type BusMessage,
  type EventBus,
  sessionRevokedMessage,
  USER_CONTROL_GROUP,
  userRevokedMessage,
} from './event-bus';

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
    let markers = 0;
    const isMarker = (m: BusMessage) => m.kind === 'membership' && m.userId.startsWith('usr_marker_');
    /** A listener that keeps what it hears in `into`, the markers of `caughtUp` left out. */
    const keep = (into: BusMessage[]) => (m: BusMessage) => {
      if (!isMarker(m)) into.push(m);
    };
    /**
     * Resolves once a marker published to group `g` now comes back: a group's messages arrive in
     * publish order, so everything published to `g` before has been delivered by then, however slow
     * the machine. Until the subscription is in place (Redis acknowledges SUBSCRIBE asynchronously)
     * markers are lost, so one goes out every 20 ms until one arrives.
     */
    const caughtUp = (g: string) =>
      new Promise<void>((resolve, reject) => {
        const sent = new Set<string>();
        const done = (error?: Error) => {
          clearInterval(again);
          clearTimeout(deadline);
          off();
          if (error) reject(error);
          else resolve();
        };
        const off = bus.subscribe(g, (m) => {
          if (m.kind === 'membership' && sent.has(m.userId)) done();
        });
        const mark = () => {
          const userId = `usr_marker_${++markers}`;
          sent.add(userId);
          bus.publish({ kind: 'membership', groupId: g, userId }).catch(() => {});
        };
        const again = setInterval(mark, 20);
        const deadline = setTimeout(() => done(new Error(`no marker came back from ${g} in 30 s`)), 30_000);
        mark();
      });
    /** Lets messages that should not come arrive if they were going to (other channels are not ordered with ours). */
    const quiet = () => new Promise((resolve) => setTimeout(resolve, 50));

    it('says it is connected once its connection is up', async () => {
      const g = group();
      const off = bus.subscribe(g, () => {});
      await caughtUp(g);
      expect(bus.isConnected?.() ?? true).toBe(true);
      off();
    });

    it('delivers a group message to every listener of that group, in publish order', async () => {
      const g = group();
      const a: BusMessage[] = [];
      const b: BusMessage[] = [];
      const offA = bus.subscribe(g, keep(a));
      const offB = bus.subscribe(g, keep(b));
      await caughtUp(g);
      for (let seq = 1; seq <= 20; seq++)
        await bus.publish({ kind: 'event', groupId: g, seq, eventId: `evt_${seq}` });
      await caughtUp(g);
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
      const off = bus.subscribe(mine, keep(got));
      await caughtUp(mine);
      await bus.publish({ kind: 'event', groupId: other, seq: 1, eventId: 'evt_x' });
      await bus.publish({ kind: 'presence', groupId: mine });
      await caughtUp(mine);
      await quiet();
      expect(got).toEqual([{ kind: 'presence', groupId: mine }]);
      off();
    });

    it('delivers the control channel’s user.revoked and session.revoked messages as published', async () => {
      const got: BusMessage[] = [];
      const off = bus.subscribe(USER_CONTROL_GROUP, keep(got));
      await caughtUp(USER_CONTROL_GROUP);
      await bus.publish(userRevokedMessage('usr_gone'));
      await bus.publish(sessionRevokedMessage('usr_ada', ['rtk_a', 'rtk_b']));
      await caughtUp(USER_CONTROL_GROUP);
      expect(got).toEqual([
        { kind: 'user.revoked', groupId: '~users', userId: 'usr_gone' },
        { kind: 'session.revoked', groupId: '~users', userId: 'usr_ada', sessionIds: ['rtk_a', 'rtk_b'] },
      ]);
      off();
    });

    it('stops delivering after unsubscribe, and keeps delivering to remaining listeners', async () => {
      const g = group();
      const a: BusMessage[] = [];
      const b: BusMessage[] = [];
      const offA = bus.subscribe(g, keep(a));
      const offB = bus.subscribe(g, keep(b));
      await caughtUp(g);
      offA();
      await bus.publish({ kind: 'membership', groupId: g, userId: 'usr_1' });
      await caughtUp(g);
      expect(a).toEqual([]);
      expect(b).toEqual([{ kind: 'membership', groupId: g, userId: 'usr_1' }]);
      offB();
      await bus.publish({ kind: 'membership', groupId: g, userId: 'usr_2' });
      await caughtUp(g);
      expect(b).toHaveLength(1);
    });
  });
}
