// A CommonJS module of a Node app that installed the tarball: `require` of the package.
const sdk = require('@tally/client');
const { scenario } = require('./scenario.cjs');

scenario(sdk, process.env.TALLY_URL, 'cjs').then((result) => {
  console.log(JSON.stringify({ resolved: require.resolve('@tally/client'), ...result }));
});
