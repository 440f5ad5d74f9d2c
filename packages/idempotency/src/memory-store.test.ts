import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { createMemoryIdempotencyStore } from './memory-store';

describeIdempotencyStoreContract('in-memory', async () => {
  const store = createMemoryIdempotencyStore({ sweepIntervalMs: 25 });
  return { store, teardown: async () => store.close() };
});

describe('in-memory idempotency store', () => {
  it('sweeps expired records so memory stays bounded', async () => {
    const store = createMemoryIdempotencyStore({ sweepIntervalMs: 20 });
    for (let i = 0; i < 100; i++) await store.claim(`s${i}`, 'fp', 'o', 10);
    expect(store.size()).toBe(100);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(store.size()).toBe(0);
    store.close();
  });
});
