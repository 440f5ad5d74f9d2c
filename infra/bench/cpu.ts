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

/** The parent pid of each running process, by pid (from /proc/<pid>/stat). */
function parentPids(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  return parents;
}

/**
 * User + system CPU time so far of `root` and every process descending from it, in microseconds by
 * pid: one PostgreSQL server (its postmaster, background workers and backends) and nothing else,
 * however many other clusters run on the machine.
 */
export function cpuByPidOfTree(root: number): Map<number, number> {
  const parents = parentPids();
  const inTree = new Set<number>([root]);
  // Backends are the postmaster's children; walk deeper anyway (a process's parent may come later).
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents)
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
  }
  const byPid = new Map<number, number>();
  for (const pid of inTree) {
    try {
      byPid.set(pid, cpuMicros(pid));
    } catch {
      // ended meanwhile
    }
  }
  return byPid;
}

/**
 * The CPU the tree under `root` spent since `before` (a `cpuByPidOfTree`), as `cpuSpentSince` counts,
 * leaving out the pids in `exclude` (another database's backends on a shared server).
 */
export function cpuOfTreeSince(root: number, before: Map<number, number>, exclude?: Set<number>): number {
  let total = 0;
  for (const [pid, micros] of cpuByPidOfTree(root))
    if (!exclude?.has(pid)) total += micros - (before.get(pid) ?? 0);
  return total;
}

/**
 * The postmaster pid of the PostgreSQL server `query` talks to: the first line of `postmaster.pid` in
 * its data directory, or else (the directory unreadable) the parent of this connection's backend.
 */
export async function postmasterPid(query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>) {
  const { rows } = await query(
    'select current_setting($$data_directory$$) as dir, pg_backend_pid() as backend',
  );
  const row = rows[0] as { dir: string; backend: number };
  try {
    const pid = Number(readFileSync(`${row.dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    if (pid > 0 && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') return pid;
  } catch {
    // not readable by this user: take the backend's parent
  }
  const stat = readFileSync(`/proc/${row.backend}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** CPU µs so far of every PostgreSQL backend connected to the database `name`, by pid (`admin`: any connection). */
export async function backendsCpu(
  admin: { query<R>(text: string, values: unknown[]): Promise<{ rows: R[] }> },
  name: string,
): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    name,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuMicros(pid));
    } catch {
      // gone meanwhile
    }
  }
  return cpu;
}
