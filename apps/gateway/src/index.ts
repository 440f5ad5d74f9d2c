export * from './create-gateway';
export * from './protocol';
