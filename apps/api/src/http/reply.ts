import type { Reply } from '@tally/idempotency';

/** What an operation answers, as data: the idempotency layer records exactly this and replays it. */
export type { Reply } from '@tally/idempotency';

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({
  status: 200,
  body,
  headers,
});
export const created = (body: unknown, headers?: Record<string, string>): Reply => ({
  status: 201,
  body,
  headers,
});
export const noContent = (): Reply => ({ status: 204 });

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** False when `If-None-Match` names the current ETag (weakly) or is `*`: the client's copy is current. */
export function ifNoneMatchHolds(header: string, currentEtag: string): boolean {
  if (header.trim() === '*') return false;
  const current = opaque(currentEtag);
  return !header.split(',').some((tag) => opaque(tag) === current);
}

/** Strong ETag of a versioned resource. */
export const etagOf = (version: number): string => `"v${version}"`;

/**
 * Evaluates `If-Match` (RFC 9110 §13.1.1) against the current ETag; `*` matches any existing resource.
 * Returns false when the precondition fails.
 */
export function ifMatchHolds(header: string | undefined, currentEtag: string | undefined): boolean {
  if (header === undefined) return true;
  if (currentEtag === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  return trimmed
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === currentEtag);
}
