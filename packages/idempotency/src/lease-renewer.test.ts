import type { IdempotencyStore } from './idempotency-store';
import { createLeaseRenewer } from './lease-renewer';
import { createMemoryIdempotencyStore } from './memory-store';

/** The in-memory store, counting the extensions asked of it. */
function countingStore() {
  const store = createMemoryIdempotencyStore();
  let extensions = 0;
  const counted: IdempotencyStore = {
    ...store,
    extend: (scope, token, leaseMs) => {
      extensions++;
      return store.extend(scope, token, leaseMs);
    },
  };
  return { store: counted, extensions: () => extensions, close: () => store.close() };
}

const owner = (token: string) => ({ token, processId: 'this-process' });
/** The renewer and the store read the clock through Date and setInterval: fake time, exact to the ms. */
const elapse = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe('lease renewer', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('keeps the lease of a write that outlives it, and lets it go once the write is over', async () => {
    const { store, close } = countingStore();
    const renewer = createLeaseRenewer({ store, leaseMs: 150, onLost: () => {} });
    await store.claim('s', 'fp', owner('slow'), 150);
    renewer.hold('s', 'slow');
    await elapse(450); // three leases' worth of time
    expect((await store.claim('s', 'fp', owner('other'), 150)).claimed).toBe(false);
    renewer.drop('s-unrelated');
    renewer.drop('slow');
    expect(renewer.size()).toBe(0);
    await elapse(200);
    expect(await store.claim('s', 'fp', owner('later'), 150)).toEqual({ claimed: true });
    close();
  });

  it('extends nothing for writes that end within a third of their lease', async () => {
    const { store, extensions, close } = countingStore();
    const renewer = createLeaseRenewer({ store, leaseMs: 300, onLost: () => {} });
    for (let i = 0; i < 50; i++) {
      await store.claim(`s${i}`, 'fp', owner(`t${i}`), 300);
      renewer.hold(`s${i}`, `t${i}`);
      await elapse(2);
      renewer.drop(`t${i}`);
    }
    await elapse(200);
    expect(extensions()).toBe(0);
    close();
  });

  it('shares one timer among a stream of short writes, and stops it once none is held', async () => {
    const { store, close } = countingStore();
    const renewer = createLeaseRenewer({ store, leaseMs: 600, onLost: () => {} });
    for (let i = 0; i < 20; i++) {
      await store.claim(`s${i}`, 'fp', owner(`t${i}`), 600);
      renewer.hold(`s${i}`, `t${i}`);
      await elapse(1);
      renewer.drop(`t${i}`);
    }
    expect(renewer.timersStarted()).toBe(1);
    expect(renewer.ticking()).toBe(true);
    await elapse(600); // a lease's worth: ticks came, and the first found no lease held
    expect(renewer.ticking()).toBe(false);
    close();
  });

  it('reports a lease that was taken over meanwhile', async () => {
    const { store, close } = countingStore();
    let lost = 0;
    const renewer = createLeaseRenewer({ store, leaseMs: 90, onLost: () => lost++ });
    await store.claim('s', 'fp', owner('first'), 90);
    await store.release('s', 'first');
    await store.claim('s', 'fp', owner('second'), 60_000);
    renewer.hold('s', 'first');
    await elapse(90); // a lease's worth: it was due for renewal a third of the way in
    renewer.drop('first');
    expect(lost).toBeGreaterThan(0);
    close();
  });
});
