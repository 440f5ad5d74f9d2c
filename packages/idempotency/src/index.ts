export * from './durable-records';
export * from './fingerprint';
export * from './idempotency-layer';
export * from './idempotency-store';
export * from './liveness';
export * from './memory-store';
export * from './parse-idempotency-key';
export * from './redis-store';
export { bodyTextOf } from './stored-reply';
