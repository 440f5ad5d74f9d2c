export * from './create-knex';
export * from './database-url';
export * from './knex-internals';
export * from './migrate-latest';
export * from './partitions';
export * from './sql';
