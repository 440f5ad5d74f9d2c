import type { Response } from 'express';

/**
 * What an operation answers, as data: the idempotency layer records exactly this and replays it.
 */
export type Reply = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
};

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

export function sendReply(res: Response, reply: Reply): void {
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.status(reply.status);
  if (reply.body === undefined || reply.status === 204 || reply.status === 304) {
    res.end();
    return;
  }
  res.json(reply.body);
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
