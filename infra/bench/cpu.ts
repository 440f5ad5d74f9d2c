/**
 * CPU time of a server process, read from /proc/<pid>/stat (utime + stime), so the bench can report
 * CPU µs per request for Tally and for each bare baseline alike, without instrumenting either.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User and system (kernel: syscalls, loopback networking) CPU time of `pid` so far, in microseconds. */
export function cpuTimes(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const toMicros = (ticks: string | undefined) => (Number(ticks) * 1_000_000) / clockTicks();
  return { user: toMicros(fields[11]), system: toMicros(fields[12]) };
}

/** User + system CPU time of `pid` so far, in microseconds. */
export function cpuMicros(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/**
 * User + system CPU time so far of each process whose command name is `comm` (`postgres`,
 * `redis-server`), in microseconds by pid: the database's share of a request, read the same way.
 */
export function cpuByPidOfCommand(comm: string): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== comm) continue;
      byPid.set(Number(entry), cpuMicros(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/**
 * The CPU `comm`'s processes spent since `before` (a `cpuByPidOfCommand`): the growth of those
 * still running plus all of those started since. A process that ended meanwhile (an idle pooled
 * connection closing) is left out rather than subtracted.
 */
export function cpuSpentSince(comm: string, before: Map<number, number>): number {
  let total = 0;
  for (const [pid, micros] of cpuByPidOfCommand(comm)) total += micros - (before.get(pid) ?? 0);
  return total;
}
