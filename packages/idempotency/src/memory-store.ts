import type { ClaimResult, IdempotencyEntry, IdempotencyStore } from './idempotency-store';

type Slot = { entry: IdempotencyEntry; expiresAt: number };

/**
 * The in-process store of the embedded default: the same lease, owner, liveness and TTL semantics as
 * the Redis store (one contract suite runs against both). `isAlive` says whether a lease's owner
 * process still runs (a `createMemoryLiveness()` registry); without it every owner counts as alive.
 * Expired slots are dropped lazily and by a periodic sweep, so memory stays bounded by the keys of
 * one retention period.
 */
export function createMemoryIdempotencyStore(
  options: { now?: () => number; sweepIntervalMs?: number; isAlive?: (processId: string) => boolean } = {},
) {
  const now = options.now ?? Date.now;
  const isAlive = options.isAlive ?? (() => true);
  const slots = new Map<string, Slot>();

  const live = (scope: string): Slot | undefined => {
    const slot = slots.get(scope);
    if (slot && slot.expiresAt <= now()) {
      slots.delete(scope);
      return undefined;
    }
    return slot;
  };
  const owned = (scope: string, token: string): Slot | undefined => {
    const slot = live(scope);
    return slot?.entry.state === 'in_progress' && slot.entry.owner === token ? slot : undefined;
  };
  /** The process of a lease whose owner is gone, or undefined when the slot stands. */
  const deadOwnerOf = (slot: Slot): string | undefined => {
    const { entry } = slot;
    if (entry.state !== 'in_progress' || entry.processId === undefined) return undefined;
    return isAlive(entry.processId) ? undefined : entry.processId;
  };

  const sweeper = setInterval(() => {
    const t = now();
    for (const [scope, slot] of slots) if (slot.expiresAt <= t) slots.delete(scope);
  }, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();

  const store: IdempotencyStore & { close(): void; size(): number } = {
    async claim(scope, fingerprint, owner, leaseMs): Promise<ClaimResult> {
      const slot = live(scope);
      const dead = slot ? deadOwnerOf(slot) : undefined;
      if (slot && dead === undefined) return { claimed: false, entry: slot.entry };
      slots.set(scope, {
        entry: { state: 'in_progress', fingerprint, owner: owner.token, processId: owner.processId },
        expiresAt: now() + leaseMs,
      });
      return dead === undefined ? { claimed: true } : { claimed: true, tookOverFrom: dead };
    },
    async extend(scope, token, leaseMs) {
      const slot = owned(scope, token);
      if (!slot) return false;
      slot.expiresAt = now() + leaseMs;
      return true;
    },
    async complete(scope, token, fingerprint, response, ttlMs) {
      if (!owned(scope, token)) return false;
      slots.set(scope, { entry: { state: 'completed', fingerprint, response }, expiresAt: now() + ttlMs });
      return true;
    },
    async release(scope, token) {
      if (!owned(scope, token)) return false;
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
