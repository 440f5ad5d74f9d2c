export * from './parse-idempotency-key';
