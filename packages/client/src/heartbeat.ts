/**
 * The client's own pings on the open connection. A half-open TCP connection (a phone that changed
 * networks, a gateway that died without a FIN) looks alive for minutes; a connection that has been
 * silent for two intervals is given up instead, and the reconnect resumes every group.
 */
export class Heartbeat {
  private interval: ReturnType<typeof setInterval> | undefined;
  private lastMessageAt = 0;

  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /** Something arrived (or a socket was just opened): the connection is alive. */
  touch(): void {
    this.lastMessageAt = this.now();
  }

  /** Pings every `intervalMs` (no heartbeat when it is not positive) until `stop()`. */
  start(intervalMs: number, ping: () => void, onSilent: () => void): void {
    this.stop();
    if (!(intervalMs > 0)) return;
    this.interval = setInterval(() => {
      if (this.now() - this.lastMessageAt > intervalMs * 2) {
        onSilent();
        return;
      }
      ping();
    }, intervalMs);
  }

  stop(): void {
    if (this.interval !== undefined) clearInterval(this.interval);
    this.interval = undefined;
  }
}
