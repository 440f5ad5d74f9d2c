import { STATUS_CODES } from 'node:http';
import type { AppError } from './app-error';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export type Problem = {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  requestId: string;
  errors?: { path: string; message: string }[];
  limit?: { name: string; max: number };
};

/** RFC 9457 body of an AppError; `type` is `/problems/` + the code in kebab case. */
export function toProblem(error: AppError, requestId: string): Problem {
  const problem: Problem = {
    type: `/problems/${error.code.replace(/_/g, '-')}`,
    title: error.title,
    status: error.status,
    code: error.code,
    detail: error.message,
    requestId,
  };
  if (error.errors) problem.errors = error.errors;
  if (error.limit) problem.limit = error.limit;
  return problem;
}

/**
 * A whole HTTP/1.1 response carrying the problem, for the places below express: a refused
 * WebSocket upgrade, a request Node could not parse. The connection closes after it.
 */
export function problemResponseText(error: AppError, requestId: string): string {
  const body = JSON.stringify(toProblem(error, requestId));
  const headers = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    `X-Request-Id: ${requestId}`,
    ...Object.entries(error.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}
