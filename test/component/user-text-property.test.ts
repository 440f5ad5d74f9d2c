/**
 * API.md §1 "Strings", as a property: random Unicode (lone surrogates, C0/C1 controls, combining
 * marks, emoji and ZWJ sequences, bidi controls, whitespace of every kind, lengths around each
 * field's bound) through every write that takes user text (`user-text-writes.ts`).
 *
 * For each: the answer's raw bytes are strict UTF-8 and JSON with no lone surrogate; the outcome is
 * the contract's (`expectedOutcome`, from the rule, not the server's code): a refusal is
 * `422 validation_failed` at the field with nothing appended to the group's log; an acceptance
 * stores exactly the expected text in the row, the answer and the event. At the end every group's
 * event log and the activity feed read strictly too.
 */
import fc from 'fast-check';
import { testSeed, withSeed } from '../support/random';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import {
  expectedOutcome,
  type Fixture,
  strictEvents,
  strictGet,
  strictJson,
  TEXT_WRITES,
  type TextWrite,
} from './user-text-writes';

/** Characters that break one rule or another, and ordinary ones around them. */
const UNITS = [
  ...['a', 'Z', '7', ' ', 'é', 'ß', '中', 'ש', 'ا', '😀', '👩‍💻', '🇩🇪'],
  ...['\ud800', '\udbff', '\udc00', '\udfff'], // lone surrogates
  ...['\u0000', '\u0007', '\t', '\n', '\u000b', '\u000c', '\r', '\u001b', '\u007f', '\u0085', '\u009f'],
  ...['\u0301', '\u0308', '\u20dd'], // combining marks
  ...['\u202a', '\u202e', '\u2066', '\u2069', '\u200e', '\u200f', '\u200d'], // bidi, marks, ZWJ
  ...['\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\ufffd', '\uffff'],
];

const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...UNITS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);

/** A text for `write`: short and mixed, or around its length bound. */
const textFor = (write: TextWrite): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit, maxLength: 12 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('x', '😀', 'e\u0301'),
          fc.integer({ min: -2, max: 1 }),
          fc.string({ unit, maxLength: 2 }),
        )
        .map(([repeated, delta, tail]) => {
          const count = Math.max(0, write.rule.max + delta - [...tail].length);
          // `e\u0301` is two code points: fill to the bound in code points
          const unitLength = [...repeated].length;
          return repeated.repeat(Math.floor(count / unitLength)) + tail;
        }),
    },
  );

const caseArb = fc
  .constantFrom(...TEXT_WRITES)
  .chain((write) => textFor(write).map((text) => ({ write, text })));

describe('user text through every write (property)', () => {
  let t: TestServer;
  let ada: TestUser;
  let f: Fixture;
  const groups = new Set<string>();
  /** The `last_seq` of each fresh group right after its creation. */
  const freshSeqs = new Map<string, number>();
  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    const bob = await t.register('Bob');
    const groupId = await t.createGroup(ada, [bob]);
    const expense = await t.postOwnExpense(ada, groupId, newKey());
    groups.add(groupId);
    f = {
      t,
      ada,
      bob,
      groupId,
      expenseId: expense.body.id,
      freshGroup: async () => {
        const id = await t.createGroup(ada);
        freshSeqs.set(id, (await lastSeqs([id]))[id] as number);
        groups.add(id);
        return id;
      },
    };
  });
  afterAll(async () => {
    await t.stop();
  });

  /** `last_seq` of each group (of `ids`, by default every group so far). */
  const lastSeqs = async (ids: string[] = [...groups]) =>
    Object.fromEntries(
      (await t.db!.knex('groups').whereIn('id', ids).select('id', 'last_seq')).map((r) => [
        r.id,
        Number(r.last_seq),
      ]),
    );

  it('answers, rows and events carry the text the rule allows, and stay strict JSON', async () => {
    await withSeed(testSeed(), (seed) =>
      fc.assert(
        fc.asyncProperty(caseArb, async ({ write, text }) => {
          const before = await lastSeqs();
          const { res, groupId } = await write.send(f, text);
          // a write to a fresh group: compare with its log as it was once created
          const created = groupId === undefined ? undefined : freshSeqs.get(groupId);
          if (groupId !== undefined && created !== undefined && !(groupId in before))
            before[groupId] = created;
          const label = { write: write.name, text: JSON.stringify(text) };
          // the answer's bytes, as a strict parser reads them
          const answer = strictJson(res.bytes) as Record<string, unknown>;
          const expected = expectedOutcome(write.rule, text);
          if (!expected.accepted) {
            expect({ ...label, status: res.status, code: answer?.['code'] }).toEqual({
              ...label,
              status: 422,
              code: 'validation_failed',
            });
            const paths = (answer['errors'] as { path: string }[]).map((e) => e.path);
            expect({ ...label, paths }).toEqual({ ...label, paths: expect.arrayContaining([write.path]) });
            // a refused write appends nothing, to any group
            expect({ ...label, seqs: await lastSeqs() }).toEqual({ ...label, seqs: before });
            return;
          }
          expect({ ...label, ok: res.status >= 200 && res.status < 300 }).toEqual({ ...label, ok: true });
          if (groupId !== undefined) groups.add(groupId);
          expect({ ...label, answered: write.answered(answer) }).toEqual({
            ...label,
            answered: expected.stored,
          });
          expect({ ...label, row: await write.stored(t.db!.knex, answer) }).toEqual({
            ...label,
            row: expected.stored,
          });
          if (write.inEvent && groupId !== undefined) {
            const after = await lastSeqs([groupId]);
            // a PATCH to the same value appends nothing; any other accepted write appends its event
            const seq = after[groupId] as number;
            if (seq !== before[groupId]) {
              const page = await strictGet(t, ada, `/v1/groups/${groupId}/events?afterSeq=${seq - 1}`);
              const last = (page['data'] as { data: Record<string, unknown> }[])[0];
              expect({ ...label, event: last && write.inEvent(last.data) }).toEqual({
                ...label,
                event: expected.stored,
              });
            }
          }
        }),
        { seed, numRuns: 80 },
      ),
    );
    // every log, the group list and the activity feed read strictly, whatever was written
    for (const groupId of groups) await strictEvents(t, ada, groupId);
    await strictGet(t, ada, '/v1/groups?limit=100');
    await strictGet(t, ada, '/v1/me/activity?limit=100');
    await strictGet(t, ada, `/v1/groups/${f.groupId}`);
  });
});
