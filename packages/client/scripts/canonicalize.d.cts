// The types of `canonicalize` 2.x as its runtime is: a CommonJS module whose `module.exports` is the
// function. Its own lib/canonicalize.d.ts says `export default`, which under `nodenext` types the
// default import (module.exports, in Node, esbuild and Metro alike) as a namespace with a `.default`.
// Only the build reads this (tsconfig.build.json `paths`); no declaration of the package names it.
declare function canonicalize(input: unknown): string | undefined;
export = canonicalize;
