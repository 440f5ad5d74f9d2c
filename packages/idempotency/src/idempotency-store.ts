/** A response as recorded for replay: status, the replayed headers, and the body text. */
export type StoredResponse = { status: number; headers: Record<string, string>; body: string };

export type IdempotencyEntry =
  | { state: 'in_progress'; fingerprint: string; owner: string }
  | { state: 'completed'; fingerprint: string; response: StoredResponse };

export type ClaimResult = { claimed: true } | { claimed: false; entry: IdempotencyEntry };

/**
 * The fast path of the idempotency layer (Redis in a fleet, memory in the embedded default).
 * A claim is a lease held by an owner token; only the owner may extend, complete or release it,
 * so a request whose lease expired and was taken over can never overwrite another's record.
 */
export type IdempotencyStore = {
  /** Atomically claims an unseen scope for `owner` for `leaseMs`, or returns what is there. */
  claim(scope: string, fingerprint: string, owner: string, leaseMs: number): Promise<ClaimResult>;
  /** Extends the lease; false when `owner` no longer holds it. */
  extend(scope: string, owner: string, leaseMs: number): Promise<boolean>;
  /** Replaces the owner's claim with the completed response, kept `ttlMs`; false when not the owner. */
  complete(
    scope: string,
    owner: string,
    fingerprint: string,
    response: StoredResponse,
    ttlMs: number,
  ): Promise<boolean>;
  /** Frees the owner's claim (the key is unseen again); false when not the owner. */
  release(scope: string, owner: string): Promise<boolean>;
};
