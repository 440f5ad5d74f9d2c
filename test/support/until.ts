/**
 * The one way the tests wait for something that happens asynchronously: `until(check)` polls `check`
 * until it holds. A check is either a condition (returns true once it holds) or an assertion (holds
 * when it returns without throwing, e.g. a block of `expect`s); either may be async.
 *
 * The deadline is generous on purpose: it only decides how long a broken test takes to fail, never
 * whether a working one passes, so a loaded machine cannot make it flake. On timeout the error says
 * what was awaited and what the check said last (its last error, or that it was still false).
 *
 * It keeps the real clock and timers it found when loaded, so a test that fakes timers can still
 * wait here for real I/O (a socket, Redis, a child process).
 */

/**
 * A condition (true once it holds) or an assertion (holds when it returns without throwing). Not
 * `unknown`: a check that returns something else (`list.find(...)`, a count) is a type error.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: an assertion returns void, a condition a boolean
export type Check = () => boolean | void | Promise<boolean | void>;

export type UntilOptions = {
  /** What is awaited, for the failure message. @default the check's source text */
  what?: string;
  /** @default 30 000: enough for a loaded machine; within Jest's 60 s test timeout */
  timeoutMs?: number;
  /** Pause between two checks. @default 10 */
  intervalMs?: number;
  /** Called before each check: a reason to stop waiting at once (a process that exited), or undefined. */
  abort?: () => string | undefined;
};

export const UNTIL_TIMEOUT_MS = 30_000;

const realNow = Date.now;
const realSetTimeout = globalThis.setTimeout;
const pause = (ms: number) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

/** A readable message for anything thrown (the messages of an AggregateError's errors, joined). */
export function errorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(errorMessage).join('; ');
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** Polls `check` until it holds (see above); `options` may be just the `what` of the message. */
export async function until(check: Check, options: string | UntilOptions = {}): Promise<void> {
  const {
    what,
    timeoutMs = UNTIL_TIMEOUT_MS,
    intervalMs = 10,
    abort,
  } = typeof options === 'string' ? { what: options } : options;
  const awaited = what ?? String(check);
  const deadline = realNow() + timeoutMs;
  let last = 'the condition was still false';
  for (;;) {
    const aborted = abort?.();
    if (aborted !== undefined) throw new Error(`stopped waiting for ${awaited}: ${aborted}`);
    try {
      if ((await check()) !== false) return;
      last = 'the condition was still false';
    } catch (error) {
      last = errorMessage(error);
    }
    if (realNow() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${awaited}; last: ${last}`);
    }
    await pause(intervalMs);
  }
}
