// An ES module of a Node app that installed the tarball: `import` of the package.
import * as sdk from '@tally/client';
import { scenario } from './scenario.cjs';

const result = await scenario(sdk, process.env.TALLY_URL, 'esm');
console.log(JSON.stringify({ resolved: import.meta.resolve('@tally/client'), ...result }));
