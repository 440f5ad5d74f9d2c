import type Joi from 'joi';
import type { JsonSchema } from '../joi-to-json-schema';
import type { DocumentedErrorCode } from '../responses';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Response headers an operation documents (see `components.headers`). */
export type HeaderName = 'ETag' | 'Location' | 'Cache-Control';

export type Success = {
  status: number;
  description: string;
  /** A component schema name, or an inline schema. */
  schema?: string | JsonSchema;
  /** Defaults to `application/json`; several: the answer is one of them, each with `schema`. */
  contentType?: string | string[];
  /** `Cache-Control` is added to every authenticated `GET` (see `index.ts`). */
  headers?: HeaderName[];
};

/**
 * One documented operation, next to the joi schemas its route validates with. The generic error
 * responses (401, 413/415/400 for JSON bodies, idempotency errors, 422 for schemas, 429, 503) are
 * derived from these flags; `errors` lists only what the operation itself can add.
 */
export type Operation = {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/groups/{groupId}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** No bearer token needed. */
  public?: boolean;
  /** Counted by the rate limiter. Defaults to every `/v1` operation but the WebSocket (see `index.ts`). */
  rateLimited?: boolean;
  /** Never answers 503 (liveness). */
  alwaysAvailable?: boolean;
  /** The route parses a JSON body (so 400 malformed_json, 413 and 415 can happen). Defaults to `body` being set. */
  jsonBody?: boolean;
  body?: Joi.Schema;
  /**
   * The route reads a raw (non-JSON) body sent as one of these media types (a receipt): the request
   * body is documented as binary, and 413/415 are the route's own `errors`.
   */
  binaryBody?: readonly string[];
  query?: Joi.Schema;
  /** Joi schemas of path parameters that the route validates; others are plain strings. */
  pathSchemas?: Record<string, Joi.Schema>;
  idempotency?: 'required' | 'optional';
  /**
   * A read that may be served by a replica (`DATABASE_READ_URL`): it takes `X-Min-Seq` (and may
   * answer `400 min_seq_invalid`).
   */
  replicaRead?: boolean;
  ifMatch?: boolean;
  success: Success[];
  /** `not_found` is added to every operation with an id in its path (see `index.ts`). */
  errors?: DocumentedErrorCode[];
  /**
   * The WebSocket upgrade, handled by the gateway below express; a plain `GET` (no upgrade) is
   * answered `426` by an express route. Its `errors` are the upgrade's own refusals, nothing derived.
   */
  websocket?: boolean;
};
