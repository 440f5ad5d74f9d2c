import { SESSION_ONLY_OPERATIONS } from '../api-keys/scopes';
import { split } from '../schemas';
import {
  CURRENCY_CODES,
  type JsonSchema,
  joiLabel,
  joiQueryParameters,
  joiToJsonSchema,
} from './joi-to-json-schema';
import { type HttpMethod, OPERATIONS, type Operation, PATH_PARAMETER_DESCRIPTIONS } from './operations';
import { type DocumentedErrorCode, ERROR_STATUS, responseSchemas } from './responses';

export { docsPage, docsRoutes } from './docs-page';

/**
 * The OpenAPI 3.1 document of the whole API, built from the operation table (`operations/`), the joi
 * request schemas (converted, so they cannot drift from validation) and the response schemas
 * (`responses/`). test/component/openapi-*.test.ts check it against the routes really registered.
 */

const PROBLEM_JSON = 'application/problem+json';

const DESCRIPTION = `Tally tracks shared money: users form **groups**, record **expenses** and
**settlements**, and read **balances**. Every money write is protected by an \`Idempotency-Key\`.

## Conventions
- JSON in and out. Bodies over 64 KiB: \`413\`; malformed JSON: \`400 malformed_json\`; a write with a body
  that is not JSON: \`415\`. Unknown body fields are rejected (\`422 validation_failed\`).
- Money is an integer count of minor units (\`amount\`) with an ISO 4217 \`currency\`; no floats.
- Identifiers are opaque, type-prefixed ULIDs (\`usr_\`, \`grp_\`, \`exp_\`, \`stl_\`, \`evt_\`).
- Timestamps are written as RFC 3339 UTC with milliseconds. A timestamp sent (\`occurredAt\`, \`from\`,
  \`to\`, \`updatedAfter\`) is an RFC 3339 date-time with an offset, of a real date and time within years
  0001–9999; a date (\`YYYY-MM-DD\`) is a real calendar date within 0001–9999. Otherwise \`422 validation_failed\`
  naming the field.
- Every string of a request is well-formed Unicode without U+0000 (a lone surrogate is \`422\`). Names (of
  users, groups, members, categories) hold no control or bidirectional control characters; free text
  (descriptions, notes, comments) keeps line feeds and tabs only. Lengths count Unicode code points. Text
  is stored as sent (after trimming where a field trims), not normalized.
- A cursor is opaque: only the \`nextCursor\` of the same list (and filters) is accepted; anything else is
  \`422 validation_failed\` at \`cursor\`.
- Errors are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`.
- Every response carries \`X-Request-Id\` (a client value of 1–128 printable ASCII characters is echoed).
- \`HEAD\` works wherever \`GET\` does. \`GET\`s answer with an \`ETag\` and honour \`If-None-Match\` (\`304\`).
- Non-members of a group get \`404\`, never \`403\`, so ids do not leak.

## Idempotency
Money writes (\`POST\`, \`PUT\`, \`PATCH\`, \`DELETE\` under \`/v1/expenses\` and \`/v1/settlements\`) **require**
\`Idempotency-Key\`; group and member writes accept and honour it; auth endpoints ignore it. Scope is
(user, key, path), where the path is the canonical route path (the route with its ids filled in, as
the API spells it: \`/V1/Expenses/\` is the scope of \`/v1/expenses\`); the fingerprint is the method
plus the canonical JSON body. A request invalid on its own (a body that fails the schema, payers or
shares that do not add up to the amount, a settlement with oneself) is answered before the key is
claimed: nothing is recorded, and a corrected retry with the same key runs. A recorded response (2xx and
the 4xx the operation decided from the group's state) is replayed with \`Idempotent-Replayed: true\`; the
same key with another request is \`409 idempotency_key_reused\`.
While the first is running, a retry waits for its outcome (up to \`IDEMPOTENCY_IN_PROGRESS_WAIT_MS\`,
2 s) and replays it, else answers \`409 idempotency_key_in_progress\` with \`Retry-After: 1\`; a key
held by a process that died is taken over at once (about 2 s after the death). Keys are kept for
\`IDEMPOTENCY_TTL_SECONDS\` (default one day).

## Decisions this document adds to the contract
- Expense lists are newest first by \`occurredAt\`, then id; settlement lists newest first by
  \`createdAt\`, then id; the group list is ordered by the caller's join time, newest first.
- Unknown query parameters on list endpoints are rejected with \`422 validation_failed\`.
- \`PUT\` on a deleted expense is \`404\`: restore it first.
- Restoring an expense appends an \`expense.created\` event with \`data.restored: true\`.
- A \`PATCH\` that changes only \`amount\` of an expense with a single payer moves that payer's amount along.
- A change that would alter the net of someone who is no longer a member is \`422 not_a_member\`.
- Balances list a currency while the group has at least one live expense or settlement in it.
- \`GET /v1/settlements/{settlementId}\` exists as an addition.
- Refresh tokens live 30 days.
- Event pagination accepts \`afterSeq\` or a \`cursor\` (the cursor wins when both are given).

## Rate limits
Per user (per IP for \`/v1/auth/*\`), shared by every instance: \`429 rate_limited\` with \`Retry-After\`
and \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`. A dependency that is down, a draining
process or shed load answer \`503 unavailable\` with \`Retry-After\`.`;

const TAGS = [
  { name: 'Auth', description: 'Registration, sign-in, token refresh' },
  { name: 'Groups', description: 'Groups of people who share expenses' },
  { name: 'Members', description: 'Who belongs to a group' },
  { name: 'Invites', description: 'Invite links: joining a group, and taking over a pending member' },
  { name: 'Expenses', description: 'Who paid, how it is split' },
  { name: 'Settlements', description: 'One member paying another back' },
  { name: 'Recurring expenses', description: 'Expenses the server creates on a schedule' },
  { name: 'Webhooks', description: 'Signed HTTP deliveries of a group’s events (Standard Webhooks)' },
  { name: 'Comments', description: 'Notes members leave on expenses and settlements' },
  { name: 'History', description: 'Every version of an expense or a settlement: who changed what, when' },
  { name: 'Imports', description: 'Expenses and payments brought in from a Splitwise export' },
  { name: 'Balances', description: 'Who owes whom' },
  { name: 'Events', description: 'The durable, ordered log of every change to a group' },
  { name: 'Notifications', description: 'Push and mail notifications, reminders, the weekly digest' },
  {
    name: 'Receipts',
    description: 'A file per expense: images re-encoded without metadata, PDFs; signed links',
  },
  { name: 'Categories', description: 'Categories of expenses, and statistics of spending (API.md §14)' },
  { name: 'Realtime', description: 'WebSocket: live events and presence' },
  { name: 'Operations', description: 'Health, metrics, this document' },
];

const header = (description: string, schema: JsonSchema = { type: 'string' }, required = false) => ({
  description,
  required,
  schema,
});

const HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': header('The request id: the client’s own `X-Request-Id` when sane, otherwise generated', {
    type: 'string',
  }),
  ETag: header('Entity tag of the representation; send it back in `If-Match` / `If-None-Match`'),
  Location: header('URL path of the created resource'),
  'Cache-Control': header('`private, no-cache` on every `/v1` read'),
  'Idempotent-Replayed': header('`true` when this is a recorded response replayed for a repeated key', {
    type: 'string',
    enum: ['true'],
  }),
  'X-Seq': header(
    'The group and its `seq` once this write is in (or as the write found it, when it changed nothing): `<groupId>:<seq>`. Send it back in `X-Min-Seq` so a read never shows an older state (API.md §1). Absent when the write concerns no group.',
    { type: 'string', pattern: '^grp_[A-Za-z0-9_-]{1,100}:(0|[1-9][0-9]{0,15})$' },
  ),
  'Retry-After': header('Whole seconds to wait before retrying', { type: 'integer', minimum: 1 }),
  'RateLimit-Limit': header('Requests allowed per window', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the current window', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the window resets', { type: 'integer' }),
  'WWW-Authenticate': header('`Bearer` challenge', { type: 'string' }),
  Upgrade: header('The protocol to upgrade to', { type: 'string', const: 'websocket' }, true),
};
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * What `parseIdempotencyKey` (packages/idempotency) accepts, exactly: 1–255 printable ASCII characters,
 * not all spaces; or such a key in double quotes (the structured-header form), which means the key
 * without them. `""` and `" "` are refused; a lone `"`, or one at one end only, is part of the key.
 */
export const IDEMPOTENCY_KEY_SCHEMA: JsonSchema = {
  anyOf: [
    {
      title: 'Key',
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^(?!".*"$)[\\x20-\\x7E]*[\\x21-\\x7E][\\x20-\\x7E]*$',
    },
    {
      title: 'Quoted key',
      type: 'string',
      minLength: 3,
      maxLength: 257,
      pattern: '^"[\\x20-\\x7E]*[\\x21-\\x7E][\\x20-\\x7E]*"$',
    },
  ],
};

const KEY_FORMAT =
  '1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) ' +
  'means the key without them.';

const PARAMETERS: Record<string, JsonSchema> = {
  IdempotencyKeyRequired: {
    name: 'Idempotency-Key',
    in: 'header',
    required: true,
    description: `Required on money writes: ${KEY_FORMAT} Missing: \`400 idempotency_key_missing\`; malformed: \`400 idempotency_key_invalid\`.`,
    schema: IDEMPOTENCY_KEY_SCHEMA,
  },
  IdempotencyKeyOptional: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: `Optional on group and member writes, honoured exactly as on money writes when present: ${KEY_FORMAT} Malformed: \`400 idempotency_key_invalid\`.`,
    schema: IDEMPOTENCY_KEY_SCHEMA,
  },
  MinSeq: {
    name: 'X-Min-Seq',
    in: 'header',
    required: false,
    description:
      'States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`.',
    schema: { type: 'string', maxLength: 2600 },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: '`304 Not Modified` when the current ETag matches.',
    schema: { type: 'string' },
  },
};
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/**
 * Who may call it: nobody in particular (public), an access token only (the WebSocket, and what only
 * a signed-in person may do, API.md §2.6), or the document's default: an access token or an API key.
 */
function securityOf(op: Operation): { security?: Record<string, string[]>[] } {
  if (op.public) return { security: [] };
  if (op.websocket || SESSION_ONLY_OPERATIONS.has(op.operationId)) return { security: [{ bearerAuth: [] }] };
  return {};
}

/** The keyed writes that change no existing group, so never answer `409 group_archived`. */
const NOT_GROUP_WRITES = new Set(['createGroup', 'markActivityRead', 'createReminder']);

/** Every problem code the operation can answer, from its flags plus its own `errors`. */
export function errorCodesOf(op: Operation): DocumentedErrorCode[] {
  // The upgrade is refused before any of the HTTP layers run: only its own refusals.
  if (op.websocket) return [...(op.errors ?? [])];
  const codes = new Set<DocumentedErrorCode>();
  if (!op.public) codes.add('unauthenticated');
  // A request with an API key outside its scopes (API.md §2.6).
  if (!op.public) codes.add('insufficient_scope');
  if (op.jsonBody) {
    codes.add('malformed_json');
    codes.add('payload_too_large');
    codes.add('unsupported_media_type');
  }
  if (op.body || op.query || op.pathSchemas) codes.add('validation_failed');
  if (op.replicaRead) codes.add('min_seq_invalid');
  if (op.idempotency) {
    if (op.idempotency === 'required') codes.add('idempotency_key_missing');
    codes.add('idempotency_key_invalid');
    codes.add('idempotency_key_reused');
    codes.add('idempotency_key_in_progress');
  }
  // Every keyed write but these changes a group, and an archived one refuses it (API.md §3).
  if (op.idempotency && !NOT_GROUP_WRITES.has(op.operationId)) codes.add('group_archived');
  for (const code of op.errors ?? []) codes.add(code);
  if (op.rateLimited) codes.add('rate_limited');
  if (!op.alwaysAvailable) codes.add('unavailable');
  return [...codes];
}

/** Outcomes of the operation itself, which the idempotency layer records and replays (unlike its own 400/409). */
const REPLAYABLE_CODES = new Set<DocumentedErrorCode>([
  'not_found',
  'member_has_balance',
  'member_claimed',
  'precondition_failed',
  'validation_failed',
  'not_a_member',
  'split_mismatch',
  'group_archived',
  'unknown_category',
  'category_name_taken',
]);

function errorResponse(op: Operation, status: number, codes: DocumentedErrorCode[]): JsonSchema {
  const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (codes.includes('unauthenticated')) headers['WWW-Authenticate'] = headerRef('WWW-Authenticate');
  if (codes.includes('upgrade_required')) headers['Upgrade'] = headerRef('Upgrade');
  if (codes.includes('idempotency_key_in_progress') || status === 429 || status === 503) {
    headers['Retry-After'] = headerRef('Retry-After');
  }
  if (status === 429) {
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
      headers[name] = headerRef(name);
    }
  }
  if (op.idempotency && codes.some((code) => REPLAYABLE_CODES.has(code))) {
    headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
  }
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    headers,
    content: {
      [PROBLEM_JSON]: {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Problem' },
            { type: 'object', properties: { code: { enum: codes }, status: { const: status } } },
          ],
        },
      },
    },
  };
}

const schemaRef = (schema: string | JsonSchema): JsonSchema =>
  typeof schema === 'string' ? { $ref: `#/components/schemas/${schema}` } : schema;

function responsesOf(op: Operation): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const success of op.success) {
    const headers: Record<string, unknown> = op.websocket
      ? {}
      : { 'X-Request-Id': headerRef('X-Request-Id') };
    for (const name of success.headers ?? []) headers[name] = headerRef(name);
    if (op.method === 'get' && !op.websocket) headers['ETag'] = headerRef('ETag');
    if (op.idempotency) {
      headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
      headers['X-Seq'] = headerRef('X-Seq');
    }
    responses[String(success.status)] = {
      description: success.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(success.schema
        ? {
            content: Object.fromEntries(
              [success.contentType ?? 'application/json']
                .flat()
                .map((type) => [type, { schema: schemaRef(success.schema as string | JsonSchema) }]),
            ),
          }
        : {}),
    };
  }
  if (op.method === 'get' && !op.websocket) {
    responses['304'] = {
      description: 'Not Modified: `If-None-Match` matched the current ETag',
      headers: { ETag: headerRef('ETag'), 'X-Request-Id': headerRef('X-Request-Id') },
    };
  }
  const byStatus = new Map<number, DocumentedErrorCode[]>();
  for (const code of errorCodesOf(op)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = errorResponse(op, status, codes);
  }
  return responses;
}

function parametersOf(op: Operation): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g)) {
    if (!name) continue;
    const joi = op.pathSchemas?.[name];
    parameters.push({
      name,
      in: 'path',
      required: true,
      description: PATH_PARAMETER_DESCRIPTIONS[name] ?? name,
      schema: joi ? joiToJsonSchema(joi) : { type: 'string' },
    });
  }
  if (op.query) parameters.push(...joiQueryParameters(op.query));
  if (op.websocket) {
    parameters.push({
      name: 'access_token',
      in: 'query',
      required: false,
      description:
        'The access token in the URL: accepted only with `WS_ALLOW_QUERY_TOKEN=true` (by default only on the single embedded node), otherwise the upgrade is refused with 401. Prefer the `Authorization` header or the first `auth` message.',
      schema: { type: 'string' },
    });
  }
  if (op.idempotency === 'required') parameters.push(parameterRef('IdempotencyKeyRequired'));
  if (op.idempotency === 'optional') parameters.push(parameterRef('IdempotencyKeyOptional'));
  if (op.ifMatch) parameters.push(parameterRef('IfMatch'));
  if (op.replicaRead) parameters.push(parameterRef('MinSeq'));
  if (op.method === 'get' && !op.websocket) parameters.push(parameterRef('IfNoneMatch'));
  return parameters;
}

function operationObject(op: Operation): JsonSchema {
  const body = op.body
    ? {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${joiLabel(op.body)}` } } },
        },
      }
    : op.binaryBody
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              op.binaryBody.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
            ),
          },
        }
      : {};
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...securityOf(op),
    parameters: parametersOf(op),
    ...body,
    responses: responsesOf(op),
    ...(op.websocket ? { 'x-websocket': true } : {}),
  };
}

const sameList = (a: unknown, b: readonly unknown[]): boolean =>
  Array.isArray(a) && a.length === b.length && a.every((value, i) => value === b[i]);

/** The converted `currency` (an enum of every code) replaced by the `Currency` component it equals. */
function withCurrencyRef(schema: JsonSchema): JsonSchema {
  if (sameList(schema['enum'], CURRENCY_CODES)) return { $ref: '#/components/schemas/Currency' };
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (Array.isArray(value)) {
      out[keyword] = value.map((item) =>
        item && typeof item === 'object' ? withCurrencyRef(item as JsonSchema) : item,
      );
    } else if (value && typeof value === 'object') {
      out[keyword] = withCurrencyRef(value as JsonSchema);
    } else {
      out[keyword] = value;
    }
  }
  return out;
}

function requestSchemas(operations: Operation[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { Split: withCurrencyRef(joiToJsonSchema(split)) };
  for (const op of operations) {
    if (op.body) schemas[joiLabel(op.body)] = withCurrencyRef(joiToJsonSchema(op.body));
  }
  return schemas;
}

function mergeSchemas(...sets: Record<string, JsonSchema>[]): Record<string, JsonSchema> {
  const merged: Record<string, JsonSchema> = {};
  for (const set of sets) {
    for (const [name, schema] of Object.entries(set)) {
      if (merged[name]) throw new Error(`openapi: two component schemas are named ${name}`);
      merged[name] = schema;
    }
  }
  return merged;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function buildDocument(): Record<string, unknown> {
  const paths: Record<string, Partial<Record<HttpMethod, JsonSchema>>> = {};
  for (const op of OPERATIONS) {
    const item = paths[op.path] ?? {};
    paths[op.path] = item;
    if (item[op.method]) throw new Error(`openapi: ${op.method} ${op.path} is documented twice`);
    item[op.method] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Tally API',
      version: '1.0.0',
      summary: 'Shared-expense tracking with exactly-once money writes',
      description: DESCRIPTION,
      // The package's licence is `UNLICENSED` (not open source): SPDX's form for a licence of one's own.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Tally-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: TAGS,
    security: [{ bearerAuth: [] }, { apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from register/login/refresh; HS256, 15 minutes by default',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'tally_sk_',
          description:
            'An API key (`Authorization: Bearer tally_sk_…`, API.md §2.6): its user within its scopes (`read`: GET and HEAD, `write`: the rest); not on the operations that list only `bearerAuth`',
        },
      },
      parameters: PARAMETERS,
      headers: HEADERS,
      schemas: mergeSchemas(requestSchemas(OPERATIONS), responseSchemas),
    },
  };
}

let memo: Record<string, unknown> | undefined;

/** The document, built once per process (and frozen: it is shared by every request). */
export function openApiDocument(): Record<string, unknown> {
  memo ??= deepFreeze(buildDocument());
  return memo;
}
