export * from './access-tokens';
export * from './app-error';
export * from './ignored-errors';
export * from './problem';
