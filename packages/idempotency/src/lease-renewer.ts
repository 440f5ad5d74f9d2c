import type { IdempotencyStore } from './idempotency-store';

/**
 * Keeps the leases of this process's long writes: ONE timer per process, and a lease is extended
 * only once its write has outlived a third of it. Most writes finish long before that and cost no
 * renewal at all. The timer starts with the first write held and stops at a tick that finds none, so
 * a stream of short writes shares one timer instead of starting and clearing one each.
 */
export function createLeaseRenewer(options: {
  store: IdempotencyStore;
  leaseMs: number;
  /** Told when an extension finds the lease gone (expired or taken over). */
  onLost: () => void;
  /** Told when an extension fails (the store unreachable): the next tick tries again. */
  onError?: (error: unknown) => void;
}) {
  const { store, leaseMs, onLost } = options;
  const onError = options.onError ?? (() => {});
  // A lease is renewed once a third of it has passed; ticking twice as often means that happens
  // at the latest halfway through it.
  const renewAfterMs = Math.max(1, Math.floor(leaseMs / 3));
  const tickMs = Math.max(1, Math.floor(renewAfterMs / 2));
  const held = new Map<string, { scope: string; renewedAt: number }>();
  let timer: NodeJS.Timeout | undefined;
  let timersStarted = 0;

  const renewDue = () => {
    if (held.size === 0) {
      clearInterval(timer);
      timer = undefined;
      return;
    }
    const now = Date.now();
    for (const [token, lease] of held) {
      if (now - lease.renewedAt < renewAfterMs) continue;
      lease.renewedAt = now;
      store.extend(lease.scope, token, leaseMs).then((kept) => {
        if (!kept) onLost();
      }, onError);
    }
  };

  return {
    /** A lease claimed just now, to keep while its write runs. */
    hold(scope: string, token: string): void {
      held.set(token, { scope, renewedAt: Date.now() });
      if (!timer) {
        timer = setInterval(renewDue, tickMs);
        timer.unref();
        timersStarted++;
      }
    },
    /** The write is over: stop renewing its lease. */
    drop(token: string): void {
      held.delete(token);
    },
    /** Leases being kept now. */
    size: () => held.size,
    /** Whether the timer runs now (it stops at the first tick with no lease held). */
    ticking: () => timer !== undefined,
    /** How many times the timer was started. */
    timersStarted: () => timersStarted,
  };
}
