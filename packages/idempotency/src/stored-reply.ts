import type { StoredResponse } from './idempotency-store';

/** A response as data, before it is sent. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

const REPLAYED_HEADERS = ['Location', 'ETag', 'Content-Type'];

/** What is recorded of a reply: status, body text and the headers a replay repeats. */
export function toStored(reply: Reply): StoredResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.headers?.[name];
    if (value !== undefined) headers[name] = value;
  }
  return { status: reply.status, headers, body: reply.body === undefined ? '' : JSON.stringify(reply.body) };
}

/** The replay of a recorded response: the same status, body and headers, plus `Idempotent-Replayed`. */
export function fromStored(stored: StoredResponse): Reply {
  return {
    status: stored.status,
    headers: { ...stored.headers, 'Idempotent-Replayed': 'true' },
    body: stored.body === '' ? undefined : JSON.parse(stored.body),
  };
}

export function stripReplayHeader(reply: Reply): Reply {
  const { 'Idempotent-Replayed': _replayed, ...headers } = reply.headers ?? {};
  return { ...reply, headers };
}
