import type { Emitter } from './emitter.js';
import { SubscriptionEndedError } from './errors.js';
import type {
  RealtimeListeners,
  SubscribedInfo,
  SubscribeOptions,
  SubscriptionHandlers,
} from './realtime-types.js';
import type { ClientMessage, CurrencyBalances, GroupEvent } from './types.js';

/** One group subscription, across every connection the client makes. */
export type Subscription = {
  groupId: string;
  handlers: SubscriptionHandlers;
  /** The initial `afterSeq`, until something is delivered. */
  from: number | undefined;
  /** The last seq delivered (or confirmed by `subscribed`); resubscriptions resume after it. */
  lastSeq: number | undefined;
  /** The id of the subscribe request in flight on this connection. */
  requestId: string | undefined;
  resyncing: boolean;
  /** Resolves at the server's first `subscribed` for it; rejects when it ends before that. */
  confirmed: Promise<SubscribedInfo>;
  /** Settles `confirmed` (a no-op once it has settled). */
  confirm: (outcome: SubscribedInfo | SubscriptionEndedError) => void;
};

/** A subscription's `confirmed` promise and what settles it, once. */
function confirmation(): Pick<Subscription, 'confirmed' | 'confirm'> {
  let settle: (outcome: SubscribedInfo | SubscriptionEndedError) => void = () => {};
  const confirmed = new Promise<SubscribedInfo>((resolve, reject) => {
    settle = (outcome) => {
      settle = () => {};
      if (outcome instanceof SubscriptionEndedError) reject(outcome);
      else resolve(outcome);
    };
  });
  // Awaiting it is optional: an ending nobody waits for is not an unhandled rejection.
  confirmed.catch(() => {});
  return { confirmed, confirm: (outcome) => settle(outcome) };
}

export type SubscriptionTrackerDeps = {
  listeners: Emitter<RealtimeListeners>;
  send: (message: ClientMessage) => void;
  nextId: () => string;
  /** Whether the connection is open and welcomed, i.e. whether a request sent now is answered. */
  isWelcomed: () => boolean;
};

function isBalances(value: unknown): value is CurrencyBalances[] {
  return Array.isArray(value);
}

/**
 * The groups the client follows and how far each has been delivered. This is what makes delivery
 * exactly once and in order across reconnects: every (re)subscription asks for the events after the
 * last seq delivered, a seq already delivered is dropped, and a gap makes it ask again from the last
 * delivered seq rather than skip ahead.
 */
export class SubscriptionTracker {
  /** Events delivered to listeners. */
  delivered = 0;
  /** Events dropped because their seq was already delivered. */
  duplicatesDropped = 0;
  /** Times an event arrived after a gap and the group was resubscribed from its last seq. */
  gapsRepaired = 0;
  private readonly subs = new Map<string, Subscription>();

  private readonly deps: SubscriptionTrackerDeps;

  constructor(deps: SubscriptionTrackerDeps) {
    this.deps = deps;
  }

  lastSeq(groupId: string): number | undefined {
    return this.subs.get(groupId)?.lastSeq;
  }

  /** Follows a group (replacing an earlier subscription to it); subscribes at once on an open connection. */
  add(groupId: string, options: SubscribeOptions): Subscription {
    const { afterSeq, ...handlers } = options;
    const sub: Subscription = {
      groupId,
      handlers,
      from: afterSeq,
      lastSeq: afterSeq,
      requestId: undefined,
      resyncing: false,
      ...confirmation(),
    };
    this.subs.get(groupId)?.confirm(new SubscriptionEndedError(groupId, 'unsubscribed'));
    this.subs.set(groupId, sub);
    if (this.deps.isWelcomed()) this.subscribe(sub);
    return sub;
  }

  /** Stops following the group (only if its subscription is still `only`, when given). */
  remove(groupId: string, only?: Subscription): void {
    const sub = this.subs.get(groupId);
    if (!sub || (only && sub !== only)) return;
    this.subs.delete(groupId);
    sub.confirm(new SubscriptionEndedError(groupId, 'unsubscribed'));
    if (this.deps.isWelcomed()) this.deps.send({ type: 'unsubscribe', id: this.deps.nextId(), groupId });
  }

  /** A new connection was welcomed: ask for every group again, after what each has delivered. */
  resubscribeAll(): void {
    for (const sub of this.subs.values()) this.subscribe(sub);
  }

  /** The connection is gone: no request of it will be answered. */
  connectionLost(): void {
    for (const sub of this.subs.values()) {
      sub.requestId = undefined;
      sub.resyncing = false;
    }
  }

  /** The group whose current subscribe request has this id. */
  groupOfRequest(id: string | undefined): string | undefined {
    if (id === undefined) return undefined;
    return [...this.subs.values()].find((s) => s.requestId === id)?.groupId;
  }

  onEvent(groupId: string, seq: number, event: GroupEvent): void {
    const sub = this.subs.get(groupId);
    if (!sub) return;
    if (sub.lastSeq !== undefined && seq <= sub.lastSeq) {
      this.duplicatesDropped++;
      return;
    }
    if (sub.lastSeq !== undefined && seq !== sub.lastSeq + 1) {
      // Never skip ahead: ask again for everything after the last delivered seq.
      if (!sub.resyncing) {
        sub.resyncing = true;
        this.gapsRepaired++;
        this.subscribe(sub);
      }
      return;
    }
    sub.lastSeq = seq;
    this.delivered++;
    const { listeners } = this.deps;
    listeners.call(() => sub.handlers.onEvent?.(event));
    listeners.emit('event', event);
    const balances = (event.data as { balances?: unknown }).balances;
    if (isBalances(balances)) {
      const update = { groupId, seq, currencies: balances };
      listeners.call(() => sub.handlers.onBalances?.(update));
      listeners.emit('balances', update);
    }
  }

  onSubscribed(groupId: string, seq: number, id: string | undefined): void {
    const sub = this.subs.get(groupId);
    if (!sub) return;
    const current = sub.requestId !== undefined && id === sub.requestId;
    // While resyncing after a gap, only the answer to the resubscription may move lastSeq: an older
    // `subscribed` would vouch for events that were dropped.
    if (sub.resyncing && !current) return;
    sub.resyncing = false;
    if (sub.lastSeq === undefined || seq > sub.lastSeq) sub.lastSeq = seq;
    const info = { groupId, seq: sub.lastSeq };
    // The answer to this subscription's own request (not a late one of a connection before).
    if (id === undefined || current) sub.confirm(info);
    this.deps.listeners.emit('subscribed', info);
  }

  /** The answer to the subscription's current subscribe: resume from the group's seq, and tell the app. */
  onResyncRequired(groupId: string, seq: number, id: string | undefined): void {
    const sub = this.subs.get(groupId);
    if (!sub || sub.requestId === undefined || id !== sub.requestId) return;
    sub.lastSeq = seq;
    sub.resyncing = false;
    const info = { groupId, seq };
    this.deps.listeners.call(() => sub.handlers.onResyncRequired?.(info));
    this.deps.listeners.emit('resync_required', info);
    // A handler may have replaced or ended the subscription.
    if (this.subs.get(groupId) === sub && this.deps.isWelcomed()) this.subscribe(sub);
  }

  onPresence(groupId: string, online: string[]): void {
    const sub = this.subs.get(groupId);
    if (!sub) return;
    const update = { groupId, online };
    this.deps.listeners.call(() => sub.handlers.onPresence?.(update));
    this.deps.listeners.emit('presence', update);
  }

  /** The server ended the subscription: the caller was removed from the group, or cannot see it. */
  end(groupId: string, reason: 'removed' | 'not_found'): void {
    const sub = this.subs.get(groupId);
    if (!sub) return;
    this.subs.delete(groupId);
    sub.confirm(new SubscriptionEndedError(groupId, reason));
    this.deps.listeners.call(() => sub.handlers.onEnded?.(reason));
    this.deps.listeners.emit('ended', { groupId, reason });
  }

  private subscribe(sub: Subscription): void {
    sub.requestId = this.deps.nextId();
    const afterSeq = sub.lastSeq ?? sub.from;
    this.deps.send({
      type: 'subscribe',
      id: sub.requestId,
      groupId: sub.groupId,
      ...(afterSeq !== undefined ? { afterSeq } : {}),
    });
  }
}
