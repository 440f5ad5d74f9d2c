import { createAccessTokens } from '@tally/http-kit';
import type { Express } from 'express';
import type { Knex } from 'knex';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { Response } from 'supertest';
import { createApp } from '../../apps/api/src/create-app';
import { checkedResponses, expectDocumented, openApi, validatorAt } from '../support/openapi-validator';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

export type JsonSchema = Record<string, unknown>;
export const doc = openApi;
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every documented operation as `METHOD /path` with its operation object. */
export const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    key: `${m.toUpperCase()} ${path}`,
    path,
    method: m,
    op: item[m] as JsonSchema,
  })),
);
export const operation = (key: string) => {
  const found = documented.find((d) => d.key === key);
  if (!found) throw new Error(`${key} is not documented`);
  return found;
};

export const resolve = (schema: JsonSchema): JsonSchema => {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const target = doc.components.schemas[ref.replace('#/components/schemas/', '')];
  if (!target) throw new Error(`dangling $ref ${ref}`);
  return target;
};

/** The `required` list of an object schema. */
export const requiredOf = (schema: JsonSchema): string[] => [
  ...((schema['required'] as string[] | undefined) ?? []),
];

/** ajv on the request body schema the document gives an operation. */
export const bodyValidator = (key: string) => {
  const { path, method } = operation(key);
  return validatorAt('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
};

/** Every JSON pointer of the document where a schema sits. */
export function schemaLocations(): string[][] {
  const locations: string[][] = Object.keys(doc.components.schemas).map((name) => [
    'components',
    'schemas',
    name,
  ]);
  for (const name of Object.keys(doc.components.parameters))
    locations.push(['components', 'parameters', name, 'schema']);
  for (const { path, method, op } of documented) {
    for (const [i, parameter] of ((op['parameters'] as JsonSchema[]) ?? []).entries()) {
      if (parameter['schema']) locations.push(['paths', path, method, 'parameters', String(i), 'schema']);
    }
    const body = op['requestBody'] as { content: Record<string, unknown> } | undefined;
    for (const mediaType of Object.keys(body?.content ?? {})) {
      locations.push(['paths', path, method, 'requestBody', 'content', mediaType, 'schema']);
    }
    for (const [status, response] of Object.entries(op['responses'] as Record<string, JsonSchema>)) {
      for (const mediaType of Object.keys((response['content'] as object | undefined) ?? {})) {
        locations.push(['paths', path, method, 'responses', status, 'content', mediaType, 'schema']);
      }
    }
  }
  return locations;
}

export const at = (pointer: string[]): unknown =>
  pointer.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);

// ---- the express routes that are really registered -------------------------------------------------
export type Layer = {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

export function registeredRoutes(app: Express): Set<string> {
  const routes = new Set<string>();
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          if (typeof path !== 'string') throw new Error(`route with a non-string path: ${String(path)}`);
          const template = `${prefix}${path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
          for (const method of Object.keys(layer.route.methods)) {
            if (method === '_all') throw new Error(`app.all() on ${template} cannot be documented`);
            routes.add(`${method.toUpperCase()} ${template}`);
          }
        }
      } else if (layer.handle?.stack) {
        if (typeof layer.rawPath !== 'string') throw new Error('mounted router without a string path');
        walk(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : layer.rawPath));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes;
}

/** The API app built with inert dependencies: building connects to nothing. */
export function buildApp(): Express {
  return createApp({
    knex: {} as Knex,
    tokens: createAccessTokens({ secret: 'openapi-test-secret-openapi-test-secret', ttlSeconds: 60 }),
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    announcer: { publications: () => [], announce: () => {} },
    isReady: async () => true,
  });
}

/** `call` sends a request and validates the answer against the document; `expectStatus` names the URL when the status is not the one expected. */
export function answering(t: TestServer) {
  type Options = {
    user?: TestUser;
    key?: string | true;
    body?: unknown;
    raw?: { type: string; text: string };
    headers?: Record<string, string>;
  };
  const call = async (
    method: 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete',
    url: string,
    o: Options = {},
  ) => {
    let req = t.request[method](url);
    if (o.user) req = req.set(o.user.auth);
    if (o.key) req = req.set('Idempotency-Key', o.key === true ? newKey() : o.key);
    for (const [name, value] of Object.entries(o.headers ?? {})) req = req.set(name, value);
    let res: Response;
    if (o.raw) res = await req.set('Content-Type', o.raw.type).send(o.raw.text);
    else if (o.body !== undefined) res = await req.send(o.body as object);
    else res = await req;
    return expectDocumented(res);
  };
  const expectStatus = (res: Response, status: number): void => {
    const url = (res as unknown as { req: { path: string } }).req.path;
    const body = res.status === status ? undefined : res.body;
    expect({ url, status: res.status, body }).toEqual({ url, status, body: undefined });
  };
  return { call, expectStatus };
}

/** What the money suite answers (openapi-answers-money); the accounts suite answers every other HTTP operation. */
export const answeredByMoneySuite = (d: { key: string; op: JsonSchema }): boolean =>
  [
    'Expenses',
    'Settlements',
    'Comments',
    'Recurring expenses',
    'Imports',
    'Balances',
    'History',
    'Categories',
    'Receipts',
  ].includes((d.op['tags'] as string[])[0]!) || d.key === 'GET /v1/groups/{groupId}/events';

/** What the webhooks suite answers (openapi-answers-webhooks). */
export const answeredByWebhooksSuite = (d: { key: string; op: JsonSchema }): boolean =>
  (d.op['tags'] as string[])[0] === 'Webhooks';

/** Every HTTP operation `pick` chooses answered (in this suite) with a success that was validated. */
export function expectEveryOperationAnswered(pick: (d: { key: string; op: JsonSchema }) => boolean): void {
  const unanswered = documented
    .filter((d) => d.op['x-websocket'] !== true && pick(d))
    .filter((d) => ![...checkedResponses].some((c) => c.startsWith(`${d.key} 2`)))
    .map((d) => d.key);
  expect(unanswered).toEqual([]);
}

/** A test server for the OpenAPI suites, with Ada signed up. */
export async function startOpenApiServer(
  env: Record<string, string> = {},
): Promise<{ t: TestServer; ada: TestUser }> {
  // ajv compiles hundreds of the document's schemas in this process, blocking the event loop for
  // a while: the in-process server's load shedder must not take that for overload.
  const t = await startTestServer({ env: { MAX_EVENT_LOOP_DELAY_MS: '600000', ...env } });
  return { t, ada: await t.register('Ada') };
}
