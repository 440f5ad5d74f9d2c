/** A response as recorded for replay: status, the replayed headers, and the body text. */
export type StoredResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * Who holds a lease: a token unique to one request, and the process running it. The process id
 * names that process's liveness mark (see `liveness.ts`): once the mark is gone, the lease may be
 * taken over before it expires.
 */
export type LeaseOwner = { token: string; processId: string };

export type IdempotencyEntry =
  | {
      state: 'in_progress';
      fingerprint: string;
      /** The owner's token. */
      owner: string;
      /** The owner's process; undefined for a lease written before leases named their process. */
      processId: string | undefined;
    }
  | { state: 'completed'; fingerprint: string; response: StoredResponse };

export type ClaimResult =
  | { claimed: true /** The dead process whose lease this claim took over, if any. */; tookOverFrom?: string }
  | { claimed: false; entry: IdempotencyEntry };

/** A notification sent along with a completion: Redis `PUBLISH channel message`. */
export type Publication = { channel: string; message: string };

/**
 * The fast path of the idempotency layer (Redis in a fleet, memory in the embedded default).
 * A claim is a lease held by an owner token; only the owner may extend, complete or release it,
 * so a request whose lease expired or was taken over can never overwrite another's record.
 */
export type IdempotencyStore = {
  /**
   * Atomically: claims an unseen scope for `owner` for `leaseMs`; or takes over a lease whose owner
   * process is no longer alive (`tookOverFrom`); or returns what is there.
   */
  claim(scope: string, fingerprint: string, owner: LeaseOwner, leaseMs: number): Promise<ClaimResult>;
  /** Extends the lease; false when `token` no longer holds it. */
  extend(scope: string, token: string, leaseMs: number): Promise<boolean>;
  /** Replaces the owner's claim with the completed response, kept `ttlMs`; false when not the owner. */
  complete(
    scope: string,
    token: string,
    fingerprint: string,
    response: StoredResponse,
    ttlMs: number,
  ): Promise<boolean>;
  /**
   * `complete`, with `publications` published in the same round trip whatever the compare-and-set
   * found (the write committed, so its events are announced even when the lease was lost). Only a
   * store next to a pub/sub (Redis) has it.
   */
  completeAndPublish?(
    scope: string,
    token: string,
    fingerprint: string,
    response: StoredResponse,
    ttlMs: number,
    publications: readonly Publication[],
  ): Promise<boolean>;
  /** Frees the owner's claim (the key is unseen again); false when not the owner. */
  release(scope: string, token: string): Promise<boolean>;
};
