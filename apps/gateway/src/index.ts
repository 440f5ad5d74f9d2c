export { CLOSE, MAX_BUFFERED_BYTES, PACE_BYTES } from './connection';
export * from './create-gateway';
export { DEFAULT_LIMITS, type GatewayLimits } from './limits';
export * from './protocol';
export { redactedUrl } from './upgrade';
