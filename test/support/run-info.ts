/**
 * What jest's global setup hands to the test workers: the server URLs and the run id. Workers get it
 * from the environment (TEST_DATABASE_URL, TEST_REDIS_URL, TALLY_TEST_RUN_ID, set before workers are
 * spawned) or, failing that, from the JSON file named by TALLY_TEST_SERVICES_FILE, whose default name is
 * derived from the pid of the jest process (a worker's parent, or the process itself when run in band).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type TestServices = {
  databaseUrl: string;
  redisUrl: string;
  /** `host:port,…` of the shared Redis Cluster (TEST_REDIS_CLUSTER_NODES). */
  redisClusterNodes?: string;
  runId: string;
  /** pid of the jest process that ran the global setup. */
  pid: number;
};

export const SERVICES_FILE_ENV = 'TALLY_TEST_SERVICES_FILE';
export const RUN_ID_ENV = 'TALLY_TEST_RUN_ID';

/** Every database created by the test support code is named `tally_test_<runid>_<random>`. */
export const DATABASE_PREFIX = 'tally_test_';
/** Every Redis key written through createTestRedis starts with `tally_test:<runid>:<random>:`. */
export const REDIS_PREFIX = 'tally_test:';

export function servicesFilePath(pid: number = process.pid): string {
  return path.join(os.tmpdir(), `tally-test-services-${pid}.json`);
}

/** A short lowercase id, unique enough per test run; safe inside database names and Redis keys. */
export function newRunId(): string {
  return `${Date.now().toString(36).slice(-6)}${randomBytes(2).toString('hex')}`;
}

export function databasePrefix(runId: string): string {
  return `${DATABASE_PREFIX}${runId}_`;
}

export function redisPrefix(runId: string): string {
  return `${REDIS_PREFIX}${runId}:`;
}

function parse(file: string): TestServices | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<TestServices>;
    if (
      typeof data.databaseUrl === 'string' &&
      typeof data.redisUrl === 'string' &&
      typeof data.runId === 'string'
    ) {
      return data as TestServices;
    }
  } catch {
    // missing or unreadable
  }
  return undefined;
}

/** The services file written by global setup, if one can be found. */
export function readTestServices(): TestServices | undefined {
  const explicit = process.env[SERVICES_FILE_ENV];
  if (explicit) return parse(explicit);
  for (const pid of [process.ppid, process.pid]) {
    const found = parse(servicesFilePath(pid));
    if (found && found.pid === pid) return found;
  }
  return undefined;
}

/** The id of this test run; generated (and remembered in the environment) when there was no global setup. */
export function currentRunId(): string {
  let runId = process.env[RUN_ID_ENV] || readTestServices()?.runId;
  if (!runId) {
    runId = newRunId();
    process.env[RUN_ID_ENV] = runId;
  }
  return runId;
}
