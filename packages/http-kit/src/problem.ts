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
  return problem;
}
