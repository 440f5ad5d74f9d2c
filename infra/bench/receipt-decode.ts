/**
 * What one receipt upload costs (API.md §9.1, §16): `processReceipt` on a generated 12 MP JPEG (noise,
 * about 8 MB: the worst a phone makes) and the same picture as HEIC (made with `heif-enc` from
 * libheif-examples, when it is installed), `BENCH_RUNS` times each, one at a time through the decode
 * gate. Prints the wall time p50/max, the event loop's worst delay while they ran (sharp decodes on
 * libuv's threads, HEIC in a worker thread: the loop should stay free) and the process's peak RSS.
 *
 *   node --import tsx infra/bench/receipt-decode.ts
 *
 * Environment: BENCH_RUNS (5), BENCH_WIDTH (4000), BENCH_HEIGHT (3000).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { createDecodeGate } from '../../apps/api/src/receipts/decode-gate';
import { processReceipt } from '../../apps/api/src/receipts/process-receipt';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WIDTH = Number(process.env.BENCH_WIDTH ?? 4000);
const HEIGHT = Number(process.env.BENCH_HEIGHT ?? 3000);

async function measure(name: string, file: Buffer) {
  const gate = createDecodeGate({ running: 1, waiting: 0 });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const times: number[] = [];
  loop.enable();
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await processReceipt(file, gate);
    times.push(performance.now() - started);
  }
  loop.disable();
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)] ?? Number.NaN;
  console.log(
    `${name}: ${(file.length / 1e6).toFixed(1)} MB upload, p50 ${p50.toFixed(0)} ms, max ${(times.at(-1) ?? 0).toFixed(0)} ms, ` +
      `event loop max delay ${(loop.max / 1e6).toFixed(0)} ms, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-receipt-bench-'));
  try {
    const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
    for (let i = 0; i < raw.length; i += 1) raw[i] = ((i * 2654435761) >>> 24) & 255;
    const image = () => sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
    await measure('JPEG', await image().jpeg({ quality: 90 }).toBuffer());
    await measure('PNG', await image().png().toBuffer());
    const png = path.join(dir, 'in.png');
    writeFileSync(png, await image().png().toBuffer());
    try {
      execFileSync('heif-enc', ['-q', '50', png, '-o', path.join(dir, 'in.heic')], { stdio: 'ignore' });
      await measure('HEIC', readFileSync(path.join(dir, 'in.heic')));
    } catch {
      console.log('HEIC: skipped (heif-enc is not installed: apt-get install libheif-examples)');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
