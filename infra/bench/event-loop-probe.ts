/**
 * Loaded into a server process by a bench (`node --import tsx --import ./infra/bench/event-loop-probe.ts
 * …`): the process's event-loop delay (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution). On
 * `SIGUSR2` it writes the delay since the last signal to `BENCH_EVENT_LOOP_FILE` as JSON
 * (`{p50, p99, max}`, ms) and starts over. Nothing in the server knows about it.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env['BENCH_EVENT_LOOP_FILE'];
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  process.on('SIGUSR2', () => {
    writeFileSync(
      file,
      JSON.stringify({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) }),
    );
    delay.reset();
  });
}
