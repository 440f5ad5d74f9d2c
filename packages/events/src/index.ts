export * from './event-bus';
