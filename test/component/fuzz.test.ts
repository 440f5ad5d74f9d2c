/**
 * Bad input against every write endpoint, generated with fast-check (fuzz-support.ts): random JSON
 * values, malformed JSON text, mutated valid bodies, odd headers and random query strings.
 *
 * The properties (API.md §1): never a 5xx; every error is application/problem+json with a stable
 * `code` whose `type` and `status` agree; and a request that failed changed nothing (row counts of
 * users, groups, group_members, expenses, settlements and events, and the versions of groups and
 * expenses, are as before it). The named cases with their exact answers: fuzz-named.test.ts.
 */
import fc from 'fast-check';
import { withSeed } from '../support/random';
import {
  authorizationArb,
  bodyArb,
  type Case,
  checkAnswer,
  contentTypeArb,
  endpoints,
  idempotencyKeyArb,
  queryArb,
  SEED,
  send,
  state,
  useFuzzServer,
} from './fuzz-support';

describe('fuzzing the write endpoints with bad input', () => {
  useFuzzServer();

  it.each(endpoints.map((e) => [e.name, e] as const))(
    '%s: never 5xx, errors are problem+json, failures change nothing',
    async (_name, endpoint) => {
      let baseline = await state();
      const caseArb: fc.Arbitrary<[string, Case]> = fc.tuple(
        endpoint.path(),
        fc.record({
          body: bodyArb(endpoint),
          contentType: contentTypeArb,
          idempotencyKey: idempotencyKeyArb,
          authorization: endpoint.auth ? authorizationArb : fc.constant('none'),
          query: queryArb,
        }),
      );
      await withSeed(SEED, (seed) =>
        fc.assert(
          fc.asyncProperty(caseArb, async ([path, c]) => {
            const res = await send(endpoint, path, c);
            baseline = await checkAnswer(
              res,
              baseline,
              () => `${endpoint.method.toUpperCase()} ${path} ${JSON.stringify(c).slice(0, 1000)}`,
            );
          }),
          { numRuns: 30, seed },
        ),
      );
    },
  );

  // ---- named cases, with the exact answer the contract gives --------------------------------------
});
