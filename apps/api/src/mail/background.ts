import type { IgnoredErrors } from '@tally/http-kit';

/**
 * Work done after the answer was sent (the DB work and the mail of a password reset request):
 * its failures are logged and counted as ignored errors (`reason`), never seen by the client, and
 * `idle()` waits for what is still running, so a stopping process finishes it before it closes
 * the database and the mail transport.
 */
export type BackgroundTasks = {
  run(reason: string, task: () => Promise<void>): void;
  idle(): Promise<void>;
};

export function createBackgroundTasks(options: { ignoredErrors?: IgnoredErrors } = {}): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(reason, task) {
      const done: Promise<void> = Promise.resolve()
        .then(task)
        .catch((error: unknown) => options.ignoredErrors?.(reason, error))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
