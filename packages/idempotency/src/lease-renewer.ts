import type { IdempotencyStore } from './idempotency-store';

/**
 * Keeps the leases of this process's long writes: ONE timer per process (running only while keyed
 * writes are in flight), and a lease is extended only once its write has outlived a third of it.
 * Most writes finish long before that and cost no renewal at all.
 */
export function createLeaseRenewer(options: {
  store: IdempotencyStore;
  leaseMs: number;
  /** Told when an extension finds the lease gone (expired or taken over). */
  onLost: () => void;
}) {
  const { store, leaseMs, onLost } = options;
  // A lease is renewed once a third of it has passed; ticking twice as often means that happens
  // at the latest halfway through it.
  const renewAfterMs = Math.max(1, Math.floor(leaseMs / 3));
  const tickMs = Math.max(1, Math.floor(renewAfterMs / 2));
  const held = new Map<string, { scope: string; renewedAt: number }>();
  let timer: NodeJS.Timeout | undefined;

  const renewDue = () => {
    const now = Date.now();
    for (const [token, lease] of held) {
      if (now - lease.renewedAt < renewAfterMs) continue;
      lease.renewedAt = now;
      store.extend(lease.scope, token, leaseMs).then(
        (kept) => {
          if (!kept) onLost();
        },
        () => {},
      );
    }
  };

  return {
    /** A lease claimed just now, to keep while its write runs. */
    hold(scope: string, token: string): void {
      held.set(token, { scope, renewedAt: Date.now() });
      if (!timer) {
        timer = setInterval(renewDue, tickMs);
        timer.unref();
      }
    },
    /** The write is over: stop renewing its lease. */
    drop(token: string): void {
      held.delete(token);
      if (held.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },
    /** Leases being kept now. */
    size: () => held.size,
  };
}
