import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from 'pino';
import { requestContext } from './request-context';
import type { Route, RouteInput } from './route';
import { type EtagOf, sendProblem, sendReply } from './send';

/**
 * One request as the steps see it, and the input its route handler gets: one object per request
 * (it is also the request context of the logs, `requestContext`).
 */
export class RequestState implements RouteInput {
  requestId = 'unknown';
  /** Undefined until authenticated (a public route's handler reads it as no user; the logs omit it). */
  userId!: string;
  sessionId: string | undefined = undefined;
  /** The API key the request authenticated with (API.md §2.6), if any: its own rate-limit budget. */
  apiKeyId: string | undefined = undefined;
  /** That key's scopes (`read`, `write`), checked by the `keyScope` step. */
  apiKeyScopes: readonly string[] = [];
  body: unknown = undefined;
  /** `performance.now()` at arrival (the metrics step). */
  started = 0;
  /** The metric label: the route's template once the route is entered, 'unmatched' until then. */
  label = 'unmatched';
  /** Set by a step that answered the request itself (a CORS preflight): nothing more runs. */
  answered = false;
  private parsedQuery: Readonly<Record<string, unknown>> | undefined = undefined;

  constructor(
    readonly route: Route,
    readonly params: Readonly<Record<string, string>>,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly ipOf: (req: IncomingMessage) => string | undefined,
  ) {}

  get method(): string {
    return this.req.method as string;
  }
  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }
  /**
   * The request's URL as the client sent it: express's routers take their mount path (`/v1`) off
   * `req.url`, and keep the whole in `originalUrl`.
   */
  get url(): string {
    return (this.req as { originalUrl?: string }).originalUrl ?? this.req.url ?? '';
  }
  /** The query string as express's 'simple' parser reads it (node:querystring), parsed when first read. */
  get query(): Readonly<Record<string, unknown>> {
    if (this.parsedQuery === undefined) {
      const url = this.url;
      const at = url.indexOf('?');
      this.parsedQuery = at === -1 ? {} : parseQuery(url.slice(at + 1));
    }
    return this.parsedQuery;
  }
  get ip(): string | undefined {
    return this.ipOf(this.req);
  }
}

/**
 * One cross-cutting step. `run` returns nothing when it is done synchronously (the fast path pays
 * no promise for it), or a promise; it refuses by throwing (the error becomes problem+json). `after`
 * runs once the answer is sent, for every request whose `run` was reached.
 * `everywhere`: the step also runs for the routes outside `/v1` (the probes, the docs, the web client).
 */
export type Step = {
  readonly name: string;
  readonly run: (s: RequestState) => undefined | Promise<void>;
  readonly after?: (s: RequestState) => void;
  readonly everywhere?: boolean;
};

export type PipelineDeps = {
  logger: Logger;
  etagOf: EtagOf;
  ipOf: (req: IncomingMessage) => string | undefined;
};

export type Pipeline = {
  /** The steps, in order: the one list every `/v1` request runs, whichever way it was routed. */
  readonly steps: readonly Step[];
  /** Runs the steps, then `route` with `params`, and sends its answer (or its error, as problem+json). */
  handle(
    route: Route,
    params: Readonly<Record<string, string>>,
    req: IncomingMessage,
    res: ServerResponse,
  ): void;
};

/** The request pipeline: `steps` in order, then the route's handler, then the answer. */
export function createPipeline(steps: readonly Step[], deps: PipelineDeps): Pipeline {
  const count = steps.length;

  async function run(s: RequestState): Promise<void> {
    let ran = 0;
    try {
      try {
        for (; ran < count; ran++) {
          const pending = (steps[ran] as Step).run(s);
          if (pending !== undefined) await pending;
          if (s.answered) break;
        }
        if (!s.answered) {
          const answer = s.route.handler(s);
          const reply = answer instanceof Promise ? await answer : answer;
          if (reply !== undefined) sendReply(s.req, s.res, reply, deps.etagOf);
        }
      } catch (error) {
        sendProblem(s.req, s.res, error, s.requestId, deps.logger, deps.etagOf);
      }
      // The steps that ran, told the answer went out (the metrics step observes it).
      for (let i = Math.min(ran, count - 1); i >= 0; i--) (steps[i] as Step).after?.(s);
    } catch (error) {
      // Only sending can throw here (a socket gone): nothing more to answer.
      deps.logger.warn({ err: error, requestId: s.requestId }, 'could not answer');
      s.res.destroy();
    }
  }

  return {
    steps,
    handle(route, params, req, res) {
      const s = new RequestState(route, params, req, res, deps.ipOf);
      requestContext.run(s, run, s);
    },
  };
}
