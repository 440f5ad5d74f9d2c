import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { createMemoryLiveness } from './liveness';
import { createMemoryIdempotencyStore } from './memory-store';

describeIdempotencyStoreContract('in-memory', async () => {
  const liveness = createMemoryLiveness();
  const store = createMemoryIdempotencyStore({ sweepIntervalMs: 25, isAlive: liveness.isAlive });
  return {
    store,
    async spawnProcess() {
      const process = liveness.process();
      await process.start();
      // In one process, a dead owner is dead at once.
      return { processId: process.processId, kill: () => process.stop() };
    },
    teardown: async () => store.close(),
  };
});

describe('in-memory idempotency store', () => {
  it('sweeps expired records so memory stays bounded', async () => {
    jest.useFakeTimers();
    try {
      const store = createMemoryIdempotencyStore({ sweepIntervalMs: 20 });
      const owner = { token: 'o', processId: 'p' };
      for (let i = 0; i < 100; i++) await store.claim(`s${i}`, 'fp', owner, 10);
      expect(store.size()).toBe(100);
      await jest.advanceTimersByTimeAsync(19); // before the first sweep
      expect(store.size()).toBe(100);
      await jest.advanceTimersByTimeAsync(1);
      expect(store.size()).toBe(0);
      store.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts every owner as alive when it is given no liveness registry (the embedded default)', async () => {
    const store = createMemoryIdempotencyStore();
    await store.claim('s', 'fp', { token: 'first', processId: 'gone' }, 60_000);
    expect((await store.claim('s', 'fp', { token: 'second', processId: 'other' }, 60_000)).claimed).toBe(
      false,
    );
    store.close();
  });
});
