import { unavailable } from '@tally/http-kit';

/**
 * At most `running` decodes at once in this process, and at most `waiting` queued behind them; one
 * more is `503 unavailable` with `Retry-After` (API.md §16, §9.1). Decoding runs on libuv's threads
 * (sharp) or a worker thread (HEIC), never on the event loop, and this gate keeps uploads from
 * taking every thread the rest of the API needs (bcrypt, zlib, files).
 */
export function createDecodeGate(limits: { running: number; waiting: number }) {
  let running = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  };
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limits.running) {
      if (queue.length >= limits.waiting) throw unavailable('Too many receipts are being read; retry.', 1);
      await new Promise<void>((resolve) => queue.push(resolve));
    } else running += 1;
    try {
      return await work();
    } finally {
      release();
    }
  };
}

export type DecodeGate = ReturnType<typeof createDecodeGate>;
