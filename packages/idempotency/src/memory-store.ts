import type { ClaimResult, IdempotencyEntry, IdempotencyStore } from './idempotency-store';

type Slot = { entry: IdempotencyEntry; expiresAt: number };

/**
 * The in-process store of the embedded default: the same lease, owner and TTL semantics as the
 * Redis store (one contract suite runs against both). Expired slots are dropped lazily and by a
 * periodic sweep, so memory stays bounded by the keys of one retention period.
 */
export function createMemoryIdempotencyStore(options: { now?: () => number; sweepIntervalMs?: number } = {}) {
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot>();

  const live = (scope: string): Slot | undefined => {
    const slot = slots.get(scope);
    if (slot && slot.expiresAt <= now()) {
      slots.delete(scope);
      return undefined;
    }
    return slot;
  };
  const owned = (scope: string, owner: string): Slot | undefined => {
    const slot = live(scope);
    return slot?.entry.state === 'in_progress' && slot.entry.owner === owner ? slot : undefined;
  };

  const sweeper = setInterval(() => {
    const t = now();
    for (const [scope, slot] of slots) if (slot.expiresAt <= t) slots.delete(scope);
  }, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();

  const store: IdempotencyStore & { close(): void; size(): number } = {
    async claim(scope, fingerprint, owner, leaseMs): Promise<ClaimResult> {
      const slot = live(scope);
      if (slot) return { claimed: false, entry: slot.entry };
      slots.set(scope, { entry: { state: 'in_progress', fingerprint, owner }, expiresAt: now() + leaseMs });
      return { claimed: true };
    },
    async extend(scope, owner, leaseMs) {
      const slot = owned(scope, owner);
      if (!slot) return false;
      slot.expiresAt = now() + leaseMs;
      return true;
    },
    async complete(scope, owner, fingerprint, response, ttlMs) {
      if (!owned(scope, owner)) return false;
      slots.set(scope, { entry: { state: 'completed', fingerprint, response }, expiresAt: now() + ttlMs });
      return true;
    },
    async release(scope, owner) {
      if (!owned(scope, owner)) return false;
      slots.delete(scope);
      return true;
    },
    close() {
      clearInterval(sweeper);
      slots.clear();
    },
    size: () => slots.size,
  };
  return store;
}
