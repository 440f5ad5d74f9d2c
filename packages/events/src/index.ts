export * from './event-bus';
export * from './event-log';
export * from './in-process-bus';
export * from './redis-bus';
