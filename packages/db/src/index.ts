export * from './create-knex';
export * from './migrate-latest';
export * from './partitions';
