import { Worker } from 'node:worker_threads';

/**
 * The worker's program, plain JavaScript (it runs without the TypeScript loader): libheif (WASM,
 * through `heic-decode`) decodes on the worker's own thread, so a large HEIC never blocks the event
 * loop. It checks the first image's size against `maxPixels` before decoding it.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.module);
(async () => {
  const images = await decode.all({ buffer: workerData.bytes });
  try {
    const first = images[0];
    if (!first) throw new Error('no image');
    if (first.width * first.height > workerData.maxPixels) {
      parentPort.postMessage({ tooLarge: true, width: first.width, height: first.height });
      return;
    }
    const { width, height, data } = await first.decode();
    parentPort.postMessage({ width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((error) => parentPort.postMessage({ error: String(error && error.message || error) }));
`;

export type DecodedHeic =
  | { kind: 'pixels'; width: number; height: number; rgba: Uint8Array }
  | { kind: 'too_large'; width: number; height: number }
  | { kind: 'unreadable' }
  | { kind: 'too_slow' };

/** A HEIC decode still running after this long is stopped (libheif in WASM: ~40 s for 12 MP on a busy core). */
export const HEIC_DECODE_TIMEOUT_MS = 120_000;

/** Decodes a HEIC file's first image to RGBA in a worker thread (256 MiB heap at most). */
export function decodeHeic(bytes: Uint8Array, maxPixels: number): Promise<DecodedHeic> {
  return new Promise((resolve) => {
    const worker = new Worker(PROGRAM, {
      eval: true,
      workerData: { module: require.resolve('heic-decode'), bytes, maxPixels },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      // libheif prints why a file is unreadable; the answer says so already: its output is dropped.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (result: DecodedHeic) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => settle({ kind: 'too_slow' }), HEIC_DECODE_TIMEOUT_MS);
    worker.on(
      'message',
      (message: {
        error?: string;
        tooLarge?: boolean;
        width: number;
        height: number;
        data?: Uint8ClampedArray;
      }) => {
        if (message.tooLarge) settle({ kind: 'too_large', width: message.width, height: message.height });
        else if (message.data) {
          const rgba = new Uint8Array(message.data.buffer, message.data.byteOffset, message.data.byteLength);
          settle({ kind: 'pixels', width: message.width, height: message.height, rgba });
        } else settle({ kind: 'unreadable' });
      },
    );
    worker.on('error', () => settle({ kind: 'unreadable' }));
    worker.on('exit', () => settle({ kind: 'unreadable' }));
  });
}
