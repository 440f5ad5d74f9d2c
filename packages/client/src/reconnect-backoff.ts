export type ReconnectBackoffOptions = {
  /** @default 500 */
  baseDelayMs?: number;
  /** @default 30000 */
  maxDelayMs?: number;
  random: () => number;
};

/**
 * When the realtime client tries again: a random time in [0, min(max, base × 2^(n−1))) before
 * reconnect n. The jitter spreads the reconnects of every client a restarted gateway dropped at once;
 * the window grows only while attempts fail before a welcome, and a welcome resets it.
 */
export class ReconnectBackoff {
  /** Connection attempts in a row that failed before a welcome. */
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  private readonly options: ReconnectBackoffOptions;

  constructor(options: ReconnectBackoffOptions) {
    this.options = options;
  }

  get failuresInARow(): number {
    return this.failures;
  }

  failed(): void {
    this.failures++;
  }

  succeeded(): void {
    this.failures = 0;
  }

  /** Runs `reconnect` after the jittered wait (replacing a wait already scheduled); returns the wait. */
  schedule(reconnect: () => void): number {
    this.cancel();
    const base = this.options.baseDelayMs ?? 500;
    const max = this.options.maxDelayMs ?? 30_000;
    const window = Math.min(max, base * 2 ** Math.max(0, this.failures - 1));
    const delayMs = Math.floor(this.options.random() * window);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      reconnect();
    }, delayMs);
    return delayMs;
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
