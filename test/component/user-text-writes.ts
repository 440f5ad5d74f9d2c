/**
 * Every write that takes text a user types (API.md §1 "Strings"), for the tests of the one rule
 * (`user-text.test.ts`, `user-text-property.test.ts`); not a test itself.
 *
 * Each write knows how to send a text in its field, where the text comes back in the answer, which
 * row and column store it, and where its event (if any) carries it, so that a test can check that
 * the same text is in all of them. `rule` is what API.md says of the field; `expectedOutcome` applies
 * it independently of the server's code.
 */
import type { Knex } from 'knex';
import { newKey, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';

/** An answer as it came over the wire: its raw bytes, and the body parsed leniently (for reading). */
export type RawResponse = {
  status: number;
  headers: Record<string, string>;
  bytes: Uint8Array;
  body: Record<string, unknown>;
};

/** One request with fetch (not supertest, which decodes the body before a test can see its bytes). */
export async function call(
  t: TestServer,
  method: string,
  path: string,
  body: unknown,
  options: { user?: TestUser; key?: boolean } = {},
): Promise<RawResponse> {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(options.user ? options.user.auth : {}),
      ...(options.key ? { 'idempotency-key': newKey() } : {}),
    },
    body: JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers.entries()),
    bytes,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

export type TextRule = {
  kind: 'name' | 'free';
  /** Surrounding whitespace is trimmed before the rule is applied (and the trimmed text stored). */
  trim: boolean;
  /** Code points, after trimming. */
  max: number;
  /** `""` is accepted (and stored as `""`). */
  allowEmpty: boolean;
};

export type Fixture = {
  t: TestServer;
  ada: TestUser;
  bob: TestUser;
  /** A group of Ada and Bob (Ada created it). */
  groupId: string;
  /** A fresh group, for writes that count against a per-group bound. */
  freshGroup(): Promise<string>;
  /** An expense of `groupId`, for comments. */
  expenseId: string;
};

export type TextWrite = {
  name: string;
  /** The field's path in the body (and in `errors` of a 422). */
  path: string;
  rule: TextRule;
  /** Sends `text` in the field; `groupId` is the group whose log the write appends to (if any). */
  send(f: Fixture, text: string): Promise<{ res: RawResponse; groupId: string | undefined }>;
  /** The text in the answer. */
  answered(body: Record<string, unknown>): unknown;
  /** The text in the row the write stored (found from the answer). */
  stored(k: Knex, body: Record<string, unknown>): Promise<unknown>;
  /** The text in the event's `data` the write appended (when it appends one). */
  inEvent?(data: Record<string, unknown>): unknown;
};

const NAME = (max: number): TextRule => ({ kind: 'name', trim: true, max, allowEmpty: false });

const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
const column = async (k: Knex, table: string, id: unknown, name: string) =>
  ((await k(table).where({ id }).first(name)) as Record<string, unknown> | undefined)?.[name];

const expenseBody = (f: Fixture, extra: Record<string, unknown>) => ({
  groupId: f.groupId,
  description: 'Dinner',
  amount: 1000,
  paidBy: f.ada.id,
  split: { type: 'equal', between: [f.ada.id, f.bob.id] },
  ...extra,
});
const recurringBody = (extra: Record<string, unknown>) => (f: Fixture) => ({
  expense: {
    description: 'Rent',
    amount: 1000,
    paidBy: f.ada.id,
    split: { type: 'equal', between: [f.ada.id] },
    ...extra,
  },
  // far ahead: creating it makes no occurrence
  schedule: { every: 'month', startsOn: '2099-01-01', timeZone: 'UTC' },
});

export const TEXT_WRITES: TextWrite[] = [
  {
    name: 'POST /v1/auth/register name',
    path: 'name',
    rule: NAME(100),
    send: async (f, text) => ({
      res: await call(f.t, 'POST', '/v1/auth/register', {
        email: uniqueEmail('text'),
        name: text,
        password: 'correct horse battery',
      }),
      groupId: undefined,
    }),
    answered: (body) => at(body, 'user', 'name'),
    stored: (k, body) => column(k, 'users', at(body, 'user', 'id'), 'name'),
  },
  {
    name: 'POST /v1/groups name',
    path: 'name',
    rule: NAME(100),
    send: async (f, text) => {
      const res = await call(f.t, 'POST', '/v1/groups', { name: text }, { user: f.ada });
      return { res, groupId: res.status === 201 ? (res.body['id'] as string) : undefined };
    },
    answered: (body) => body['name'],
    stored: (k, body) => column(k, 'groups', body['id'], 'name'),
  },
  {
    name: 'POST /v1/groups description',
    path: 'description',
    rule: { kind: 'free', trim: false, max: 1000, allowEmpty: true },
    send: async (f, text) => {
      const res = await call(f.t, 'POST', '/v1/groups', { name: 'G', description: text }, { user: f.ada });
      return { res, groupId: res.status === 201 ? (res.body['id'] as string) : undefined };
    },
    answered: (body) => body['description'],
    stored: (k, body) => column(k, 'groups', body['id'], 'description'),
  },
  {
    name: 'PATCH /v1/groups/{id} name',
    path: 'name',
    rule: NAME(100),
    send: async (f, text) => ({
      res: await call(f.t, 'PATCH', `/v1/groups/${f.groupId}`, { name: text }, { user: f.ada }),
      groupId: f.groupId,
    }),
    answered: (body) => body['name'],
    stored: (k, body) => column(k, 'groups', body['id'], 'name'),
    inEvent: (data) => at(data, 'group', 'name'),
  },
  {
    name: 'PATCH /v1/groups/{id} description',
    path: 'description',
    rule: { kind: 'free', trim: false, max: 1000, allowEmpty: true },
    send: async (f, text) => ({
      res: await call(f.t, 'PATCH', `/v1/groups/${f.groupId}`, { description: text }, { user: f.ada }),
      groupId: f.groupId,
    }),
    answered: (body) => body['description'],
    stored: (k, body) => column(k, 'groups', body['id'], 'description'),
    inEvent: (data) => at(data, 'group', 'description'),
  },
  {
    name: 'POST /v1/groups/{id}/members name (a pending member)',
    path: 'name',
    rule: NAME(100),
    send: async (f, text) => ({
      res: await call(f.t, 'POST', `/v1/groups/${f.groupId}/members`, { name: text }, { user: f.ada }),
      groupId: f.groupId,
    }),
    answered: (body) => body['name'],
    stored: (k, body) => column(k, 'users', body['userId'], 'name'),
    inEvent: (data) => at(data, 'member', 'name'),
  },
  {
    name: 'POST /v1/expenses description',
    path: 'description',
    rule: { kind: 'free', trim: true, max: 200, allowEmpty: false },
    send: async (f, text) => ({
      res: await call(f.t, 'POST', '/v1/expenses', expenseBody(f, { description: text }), {
        user: f.ada,
        key: true,
      }),
      groupId: f.groupId,
    }),
    answered: (body) => body['description'],
    stored: (k, body) => column(k, 'expenses', body['id'], 'description'),
    inEvent: (data) => at(data, 'expense', 'description'),
  },
  {
    name: 'POST /v1/expenses category',
    path: 'category',
    rule: { kind: 'name', trim: false, max: 64, allowEmpty: false },
    send: async (f, text) => ({
      res: await call(f.t, 'POST', '/v1/expenses', expenseBody(f, { category: text }), {
        user: f.ada,
        key: true,
      }),
      groupId: f.groupId,
    }),
    answered: (body) => body['category'],
    stored: (k, body) => column(k, 'expenses', body['id'], 'category'),
    inEvent: (data) => at(data, 'expense', 'category'),
  },
  {
    name: 'POST /v1/settlements note',
    path: 'note',
    rule: { kind: 'free', trim: false, max: 500, allowEmpty: true },
    send: async (f, text) => ({
      res: await call(
        f.t,
        'POST',
        '/v1/settlements',
        { groupId: f.groupId, fromUserId: f.bob.id, toUserId: f.ada.id, amount: 1, note: text },
        { user: f.ada, key: true },
      ),
      groupId: f.groupId,
    }),
    answered: (body) => body['note'],
    stored: (k, body) => column(k, 'settlements', body['id'], 'note'),
    inEvent: (data) => at(data, 'settlement', 'note'),
  },
  {
    name: 'POST /v1/expenses/{id}/comments text',
    path: 'text',
    rule: { kind: 'free', trim: false, max: 2000, allowEmpty: false },
    send: async (f, text) => ({
      res: await call(
        f.t,
        'POST',
        `/v1/expenses/${f.expenseId}/comments`,
        { text },
        { user: f.bob, key: true },
      ),
      groupId: f.groupId,
    }),
    answered: (body) => body['text'],
    stored: (k, body) => column(k, 'comments', body['id'], 'text'),
    inEvent: (data) => at(data, 'comment', 'text'),
  },
  {
    name: 'POST /v1/groups/{id}/recurring expense.description',
    path: 'expense.description',
    rule: { kind: 'free', trim: true, max: 200, allowEmpty: false },
    send: async (f, text) => {
      const groupId = await f.freshGroup();
      const res = await call(
        f.t,
        'POST',
        `/v1/groups/${groupId}/recurring`,
        recurringBody({ description: text })(f),
        {
          user: f.ada,
          key: true,
        },
      );
      return { res, groupId };
    },
    answered: (body) => at(body, 'expense', 'description'),
    stored: async (k, body) =>
      at(await column(k, 'recurring_expenses', body['id'], 'expense'), 'description'),
    inEvent: (data) => at(data, 'recurring', 'expense', 'description'),
  },
  {
    name: 'POST /v1/groups/{id}/recurring expense.category',
    path: 'expense.category',
    rule: { kind: 'name', trim: false, max: 64, allowEmpty: false },
    send: async (f, text) => {
      const groupId = await f.freshGroup();
      const res = await call(
        f.t,
        'POST',
        `/v1/groups/${groupId}/recurring`,
        recurringBody({ category: text })(f),
        {
          user: f.ada,
          key: true,
        },
      );
      return { res, groupId };
    },
    answered: (body) => at(body, 'expense', 'category'),
    stored: async (k, body) => at(await column(k, 'recurring_expenses', body['id'], 'expense'), 'category'),
    inEvent: (data) => at(data, 'recurring', 'expense', 'category'),
  },
];

/** Characters a name may not hold (API.md §1): C0, DEL, C1, U+2028/U+2029, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the rule refuses
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/** Characters free text may not hold: controls other than tab and line feed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the rule refuses
const FREE_FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

/**
 * What the contract says of `text` in a field with `rule`: refused (422 at the field), or accepted
 * and stored as `stored` (trimmed when the field trims), from the rule itself, not the server's code.
 */
export function expectedOutcome(
  rule: TextRule,
  text: string,
): { accepted: false } | { accepted: true; stored: string } {
  if (/\p{Cs}/u.test(text)) return { accepted: false };
  const value = rule.trim ? text.trim() : text;
  if (value === '')
    return rule.allowEmpty && !rule.trim ? { accepted: true, stored: '' } : { accepted: false };
  if (!rule.allowEmpty && !rule.trim && text.trim() === '' && rule.kind === 'free')
    return { accepted: false };
  if ((rule.kind === 'name' ? NAME_FORBIDDEN : FREE_FORBIDDEN).test(value)) return { accepted: false };
  if ([...value].length > rule.max) return { accepted: false };
  return { accepted: true, stored: value };
}

/**
 * The answer's raw bytes as a strict parser reads them: UTF-8 that decodes without replacement, JSON,
 * and no lone surrogate in any string (a `\udXXX` escape alone is valid JSON grammar, but jq and
 * other strict parsers refuse it). Throws otherwise; returns the parsed value.
 */
export function strictJson(bytes: Uint8Array): unknown {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const value: unknown = text === '' ? undefined : JSON.parse(text);
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      if (/\p{Cs}/u.test(node)) throw new Error(`lone surrogate at ${path}: ${JSON.stringify(node)}`);
    } else if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${path}[${i}]`);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        walk(key, `${path}{key}`);
        walk(item, `${path}.${key}`);
      }
    }
  };
  walk(value, '$');
  return value;
}

/** GET `path` with fetch (the raw bytes, not supertest's parse) and returns them strictly parsed. */
export async function strictGet(
  t: TestServer,
  user: TestUser,
  path: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.url}${path}`, { headers: user.auth });
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${Buffer.from(bytes).toString()}`);
  return strictJson(bytes) as Record<string, unknown>;
}

/** Every event of `groupId`'s log, each page read strictly. */
export async function strictEvents(t: TestServer, user: TestUser, groupId: string) {
  const events: { seq: number; type: string; data: Record<string, unknown> }[] = [];
  let cursor: string | null = null;
  do {
    const page: Record<string, unknown> = await strictGet(
      t,
      user,
      `/v1/groups/${groupId}/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    events.push(...(page['data'] as typeof events));
    cursor = page['nextCursor'] as string | null;
  } while (cursor);
  return events;
}
