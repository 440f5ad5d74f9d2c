/**
 * `npm run lint:openapi`: the OpenAPI document Tally serves, linted by Redocly's `recommended`
 * ruleset (the engine of `redocly lint`). Exits non-zero on any problem, warnings included, except
 * the few below that the ruleset cannot know are right here. `npm run lint` runs it after biome.
 */
import { openApiDocument } from './openapi';

/**
 * Problems accepted on purpose, each by rule and the JSON pointer it is reported at, with why.
 * Anything else fails the lint.
 */
const ACCEPTED: ReadonlyArray<{ rule: string; pointer: string; why: string }> = [
  {
    rule: 'operation-2xx-response',
    pointer: '#/paths/~1v1~1ws/get/responses',
    why: 'a WebSocket upgrade succeeds with 101 Switching Protocols, never a 2xx',
  },
  ...['healthz', 'readyz', 'metrics', 'v1~1openapi.json', 'docs'].map((path) => ({
    rule: 'operation-4xx-response',
    pointer: `#/paths/~1${path}/get/responses`,
    why: 'an unauthenticated probe or document GET without parameters has no client error to answer',
  })),
  ...['ServerMessage', 'ClientMessage'].map((name) => ({
    rule: 'no-unused-components',
    pointer: `#/components/schemas/${name}`,
    why: 'WebSocket frames: OpenAPI has no place to reference them from; GET /v1/ws describes them',
  })),
];

async function main(): Promise<void> {
  // Redocly is an ES module: imported, not required.
  const { createConfig, lintFromString, formatProblems } = await import('@redocly/openapi-core');
  const config = await createConfig({ extends: ['recommended'] });
  const found = await lintFromString({
    source: JSON.stringify(openApiDocument(), null, 2),
    absoluteRef: 'openapi.json',
    config,
  });
  const problems = found.filter(
    (p) => !ACCEPTED.some((a) => a.rule === p.ruleId && p.location.some((l) => l.pointer === a.pointer)),
  );
  if (problems.length === 0) {
    process.stdout.write(
      `openapi: Redocly recommended ruleset, 0 problems (${found.length} accepted, see lint-openapi.ts)\n`,
    );
    return;
  }
  formatProblems(problems, {
    format: 'stylish',
    totals: { errors: 0, warnings: 0, ignored: 0 },
    version: '',
  });
  process.stderr.write(`openapi: ${problems.length} Redocly problem(s)\n`);
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`lint:openapi failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
