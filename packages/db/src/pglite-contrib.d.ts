// PGlite publishes its contrib extensions under `exports` ("./contrib/*"), which this repository's
// `moduleResolution: node` does not read; node, tsx and jest resolve it at run time.
declare module '@electric-sql/pglite/contrib/pg_trgm' {
  export const pg_trgm: import('@electric-sql/pglite').Extension;
}
