/**
 * Every request schema of the API, by area: the route handlers validate with them and the OpenAPI
 * document is generated from them, so the two cannot drift apart.
 */
export * from './accounts';
export * from './categories';
export * from './expenses';
export * from './fields';
export * from './recurring';
