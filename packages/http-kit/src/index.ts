export * from './app-error';
export * from './problem';
