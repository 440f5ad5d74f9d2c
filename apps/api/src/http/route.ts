import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '@tally/http-kit';
import type Joi from 'joi';
import { OPERATIONS, type Operation } from '../openapi/operations';
import type { Reply } from './reply';
import { validate } from './validate';

/**
 * Who may call a route, and what it costs:
 * - `user`: a bearer token (authenticated, revocation checked), the per-user budget, `Cache-Control`;
 * - `public`: no token, `Cache-Control` (the `/v1/auth` routes; their per-IP budget goes by path);
 * - `open`: no token, no budget, no `Cache-Control` (the OpenAPI document, the WebSocket's plain GET).
 */
export type Access = 'user' | 'public' | 'open';

/** What a route handler reads of its request: plain data, no express object. */
export type RouteInput = {
  readonly method: string;
  /** The URL as the client sent it (path and query). */
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  /** The authenticated user (undefined on a public route: its handlers do not read it). */
  readonly userId: string;
  /** The session (`sid`) of the access token; undefined for a token issued without one. */
  readonly sessionId: string | undefined;
  readonly requestId: string;
  /** The client's IP address (`TRUST_PROXY`), read when asked. */
  readonly ip: string | undefined;
  readonly route: Route;
  /** The response itself, for the few routes that stream their answer (the exports). */
  readonly res: ServerResponse;
};

/** An answer as data, or undefined when the handler wrote the response itself (a stream). */
export type RouteHandler = (input: RouteInput) => Reply | undefined | Promise<Reply | undefined>;

/** One route, declared once: method and path come from its OpenAPI operation. */
export type Route = {
  readonly operationId: string;
  readonly method: string;
  /** The template as express spells it (`/v1/expenses/:expenseId`): the metric label and the idempotency scope. */
  readonly path: string;
  readonly access: Access;
  /** The largest JSON body it takes; undefined: the route reads no body. */
  readonly maxBodyBytes: number | undefined;
  /** Idempotency-Key requirement of a write route (API.md §7). */
  readonly key?: 'required' | 'optional';
  readonly operation: Operation | undefined;
  readonly handler: RouteHandler;
  /** A request the route leaves to the next one (the WebSocket's upgrade, answered by the gateway). */
  readonly declines?: (req: IncomingMessage) => boolean;
};

/** What a route module declares; everything else comes from the operation. */
export type RouteDeclaration = {
  operation: string;
  handler: RouteHandler;
  access?: Access;
  maxBodyBytes?: number;
  key?: 'required' | 'optional';
  declines?: (req: IncomingMessage) => boolean;
};

export const MAX_BODY_BYTES = 64 * 1024;

const byId = new Map(OPERATIONS.map((op) => [op.operationId, op]));

/** The express spelling of an OpenAPI template: `{groupId}` → `:groupId`. */
export const expressPath = (template: string): string => template.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

/** A route from its declaration and its operation (an unknown operationId fails at start-up). */
export function declareRoute(declaration: RouteDeclaration): Route {
  const op = byId.get(declaration.operation);
  if (op === undefined) throw new Error(`no OpenAPI operation ${declaration.operation}`);
  const access: Access = declaration.access ?? (op.public ? (op.rateLimited ? 'public' : 'open') : 'user');
  return {
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: expressPath(op.path),
    access,
    maxBodyBytes: op.jsonBody ? (declaration.maxBodyBytes ?? MAX_BODY_BYTES) : undefined,
    key: declaration.key,
    operation: op,
    handler: declaration.handler,
    declines: declaration.declines,
  };
}

/** A route that is not a keyed write: its operation, its handler, and what differs from the operation. */
export const route = (
  operation: string,
  handler: RouteHandler,
  options?: Omit<RouteDeclaration, 'operation' | 'handler'>,
): Route => declareRoute({ operation, handler, ...options });

/** A path parameter; a NUL can never be part of an id (PostgreSQL text cannot hold it): nothing is found. */
export function param(input: Pick<RouteInput, 'params'>, name: string): string {
  const value = input.params[name];
  if (typeof value !== 'string' || value.includes('\u0000')) throw notFound();
  return value;
}

function schemaOf(route: Route, part: 'body' | 'query'): Joi.Schema {
  const schema = route.operation?.[part];
  if (schema === undefined) throw new Error(`operation ${route.operationId} declares no ${part} schema`);
  return schema;
}

/** The body validated by the operation's own `body` schema (`empty`: what a missing body counts as). */
export const bodyOf = <T>(input: RouteInput, empty?: unknown): T =>
  validate<T>(schemaOf(input.route, 'body'), input.body ?? empty, 'body');

/** A path parameter validated by the operation's own schema of it (`pathSchemas`). */
export function pathParamOf(input: RouteInput, name: string): string {
  const schema = input.route.operation?.pathSchemas?.[name];
  if (schema === undefined)
    throw new Error(`operation ${input.route.operationId} declares no schema of ${name}`);
  return validate<string>(schema.label(name), param(input, name), 'path');
}

/** The query validated by the operation's own `query` schema. */
export const queryOf = <T>(input: RouteInput): T =>
  validate<T>(schemaOf(input.route, 'query'), input.query, 'query');
