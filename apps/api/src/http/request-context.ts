import { AsyncLocalStorage } from 'node:async_hooks';

export type RequestContext = { requestId: string; userId?: string };

/** Carries the request id (and, once authenticated, the user id) into logs and event metadata. */
export const requestContext = new AsyncLocalStorage<RequestContext>();
