import type { StoredResponse } from './idempotency-store';

/**
 * A response as data, before it is sent. `bodyText` is the body as JSON text once something
 * needed it (`bodyTextOf`): the durable record, the store's completion and the HTTP response all
 * use the one serialisation.
 */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string>; bodyText?: string };

/** The reply's body as JSON text ('' for none), serialised once per reply. */
export function bodyTextOf(reply: Reply): string {
  if (reply.bodyText === undefined)
    reply.bodyText = reply.body === undefined ? '' : JSON.stringify(reply.body);
  return reply.bodyText;
}

/** `X-Seq`: the group's `seq` the write left, so that a replay's reads never go behind it either. */
const REPLAYED_HEADERS = ['Location', 'ETag', 'Content-Type', 'X-Seq'];

/** What is recorded of a reply: status, body text and the headers a replay repeats. */
export function toStored(reply: Reply): StoredResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.headers?.[name];
    if (value !== undefined) headers[name] = value;
  }
  return { status: reply.status, headers, body: bodyTextOf(reply) };
}

/**
 * The replay of a recorded response: the same status, body and headers, plus `Idempotent-Replayed`.
 * It is sent as the recorded text; the body is parsed only if something reads it.
 */
export function fromStored(stored: StoredResponse): Reply {
  const reply: Reply = {
    status: stored.status,
    headers: { ...stored.headers, 'Idempotent-Replayed': 'true' },
    bodyText: stored.body,
  };
  let parsed: unknown;
  Object.defineProperty(reply, 'body', {
    enumerable: true,
    get: () => {
      if (parsed === undefined && stored.body !== '') parsed = JSON.parse(stored.body);
      return parsed;
    },
  });
  return reply;
}

export function stripReplayHeader(reply: Reply): Reply {
  const { 'Idempotent-Replayed': _replayed, ...headers } = reply.headers ?? {};
  const stripped: Reply = { status: reply.status, headers, bodyText: bodyTextOf(reply) };
  Object.defineProperty(stripped, 'body', { enumerable: true, get: () => reply.body });
  return stripped;
}
