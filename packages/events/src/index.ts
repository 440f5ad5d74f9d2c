export * from './event-bus';
export * from './event-log';
export * from './in-process-bus';
export * from './presence-store';
export * from './redis-bus';
export * from './relay';
