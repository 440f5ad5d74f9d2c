import type { Writable } from 'node:stream';

/**
 * Writes `chunk` and, when the socket's buffer is full (`write` returned false), waits for `drain`,
 * so a slow reader slows the reads down instead of the export piling up in memory. Resolves false
 * when the response closed (the client went away): the caller stops reading.
 */
export async function writeWithBackpressure(out: Writable, chunk: string): Promise<boolean> {
  if (out.destroyed || out.writableEnded) return false;
  if (out.write(chunk)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (open: boolean) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      resolve(open);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    out.on('drain', onDrain);
    out.on('close', onClose);
  });
}
