import { bodyTextOf, type Reply } from '@tally/idempotency';
import type { Response } from 'express';

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

export function sendReply(res: Response, reply: Reply): void {
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.status(reply.status);
  // The text, not `reply.body`: a replay's body is its recorded text, parsed only if read.
  const text = bodyTextOf(reply);
  if (text === '' || reply.status === 204 || reply.status === 304) {
    res.end();
    return;
  }
  if (notModified(res, text)) {
    res.status(304).end();
    return;
  }
  if (!res.get('Content-Type')) res.setHeader('Content-Type', 'application/json');
  res.send(text);
}

/**
 * `If-None-Match` on a successful GET/HEAD, evaluated here per RFC 9110 §13.1.2 (weak comparison)
 * rather than by Express's `req.fresh`, which answers "not fresh" whenever the request carries
 * `Cache-Control: no-cache`; every fetch-based client (browsers, React Native, undici) adds that
 * header to a conditional request, so they would never see a 304. The ETag is the reply's own
 * (versioned resources) or Express's weak hash of the body (lists, balances).
 */
function notModified(res: Response, text: string): boolean {
  const { method } = res.req;
  const condition = res.req.headers['if-none-match'];
  if ((method !== 'GET' && method !== 'HEAD') || res.statusCode < 200 || res.statusCode >= 300) return false;
  let etag = res.get('ETag');
  if (etag === undefined) {
    const etagOfBody = res.app.get('etag fn') as ((body: string, encoding: string) => string) | undefined;
    etag = etagOfBody?.(text, 'utf8');
    if (etag === undefined) return false;
    res.setHeader('ETag', etag);
  }
  return condition !== undefined && ifNoneMatchHolds(condition, etag) === false;
}

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
