export * from './access-tokens';
export * from './app-error';
export * from './problem';
