import Joi from 'joi';
import { CONFIG_VARIABLES, VARIABLES } from './config/variables';

export type { RedisClusterConfig } from './config/values';
export { CONFIG_GROUPS, CONFIG_VARIABLES, type Role } from './config/variables';

// The environment variables are declared once, in config/variables.ts; this file parses them.

/** The `Config` fields that are not simply their variable in camelCase. */
const FIELD_NAMES = {
  REDIS_CLUSTER_NODES: 'redisCluster',
  TALLY_TEST_FAULT_POINT: 'testFaultPoint',
  TALLY_TEST_CLOCK_OFFSET_MS: 'testClockOffsetMs',
} as const;

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}`
  : Lowercase<S>;
type FieldOf<Name extends string> = Name extends keyof typeof FIELD_NAMES
  ? (typeof FIELD_NAMES)[Name]
  : CamelCase<Name>;
type Parsed<S> = S extends Joi.AnySchema<infer T> ? T : never;

/** The parsed configuration: one field for each variable, named and typed by its declaration. */
export type Config = Readonly<{
  [Name in keyof typeof VARIABLES as FieldOf<Name>]: Parsed<(typeof VARIABLES)[Name]>;
}>;

const fieldOf = (name: string): string =>
  FIELD_NAMES[name as keyof typeof FIELD_NAMES] ??
  name.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

const schema = Joi.object(VARIABLES)
  .unknown(true)
  .custom((value: Record<string, unknown>, helpers) => {
    if (value['REDIS_URL'] && value['REDIS_CLUSTER_NODES']) {
      // Two Redis deployments named at once is a mistake (a half-done migration); guessing which is
      // meant would split the fleet's leases, counters and fan-out between them.
      return helpers.message({
        custom:
          '"REDIS_CLUSTER_NODES" and "REDIS_URL" are both set: set REDIS_CLUSTER_NODES for a Redis Cluster or REDIS_URL for a single Redis, not both',
      });
    }
    if (value['DATABASE_READ_URL'] && !value['DATABASE_URL']) {
      return helpers.message({
        custom:
          '"DATABASE_READ_URL" needs "DATABASE_URL": replicas serve the reads of a PostgreSQL primary, not of the embedded database',
      });
    }
    if (!value['REDIS_URL'] && !value['REDIS_CLUSTER_NODES'] && value['ROLE'] !== 'all') {
      return helpers.message({
        custom: '"REDIS_URL" (or "REDIS_CLUSTER_NODES") is required when ROLE is api or gateway',
      });
    }
    if (
      !value['JWT_SECRET'] &&
      (value['ROLE'] !== 'all' || value['DATABASE_URL'] || value['NODE_ENV'] === 'production')
    ) {
      return helpers.message({
        custom:
          '"JWT_SECRET" is required unless this is the single embedded node (ROLE=all without DATABASE_URL, outside production): every instance must verify the others\' tokens',
      });
    }
    if (value['RECEIPT_STORAGE'] === 's3' && !value['RECEIPT_S3_BUCKET']) {
      return helpers.message({ custom: '"RECEIPT_S3_BUCKET" is required when RECEIPT_STORAGE is s3' });
    }
    if (!value['RECEIPT_S3_ACCESS_KEY_ID'] !== !value['RECEIPT_S3_SECRET_ACCESS_KEY']) {
      return helpers.message({
        custom:
          '"RECEIPT_S3_ACCESS_KEY_ID" and "RECEIPT_S3_SECRET_ACCESS_KEY" go together: set both or neither',
      });
    }
    if (value['WS_ALLOW_QUERY_TOKEN'] === undefined) {
      // The URL token is for the single embedded node only (as the generated JWT_SECRET is).
      value['WS_ALLOW_QUERY_TOKEN'] =
        value['ROLE'] === 'all' && !value['DATABASE_URL'] && value['NODE_ENV'] !== 'production';
    }
    return value;
  });

/** Thrown when the environment is not a valid configuration; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment once at boot. Nothing else in the service reads `process.env`.
 * @throws ConfigError with one line naming the offending variable
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const variable = detail?.path.join('.') || '';
    throw new ConfigError(
      `invalid configuration: ${variable ? `${variable}: ` : ''}${detail?.message ?? error.message}`,
    );
  }
  const parsed = value as Record<string, unknown>;
  return Object.freeze(
    Object.fromEntries(CONFIG_VARIABLES.map((name) => [fieldOf(name), parsed[name]])),
  ) as Config;
}
