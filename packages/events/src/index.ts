export * from './event-bus';
export * from './event-log';
export * from './hash-slot';
export type { OnIgnoredError } from './ignored-error';
export * from './in-process-bus';
export * from './presence-store';
export * from './redis-bus';
export * from './relay';
export * from './sharded-subscriber';
