/**
 * API.md §1 "Strings": one rule for every text a user types. Lone surrogates are refused (422), never
 * stored as U+FFFD in the row while the event keeps the surrogate; lengths count code points; names
 * hold no control characters or bidi controls; free text keeps line feeds and tabs only; the row,
 * the event and every answer carry the same text. The cases the issue measured, one by one.
 */
import type { Response } from 'supertest';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectValidationFailed } from './component-helpers';
import {
  type Fixture,
  strictEvents,
  strictGet,
  strictJson,
  TEXT_WRITES,
  type TextWrite,
} from './user-text-writes';

const write = (name: string): TextWrite => {
  const found = TEXT_WRITES.find((w) => w.name === name);
  if (!found) throw new Error(`no write ${name}`);
  return found;
};
const NAMES = TEXT_WRITES.filter((w) => w.rule.kind === 'name');
const FREE = TEXT_WRITES.filter((w) => w.rule.kind === 'free');

describe('user text (API.md §1 Strings)', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let f: Fixture;
  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    const groupId = await t.createGroup(ada, [bob]);
    const expense = await t.postOwnExpense(ada, groupId, newKey());
    f = {
      t,
      ada,
      bob,
      groupId,
      expenseId: expense.body.id,
      freshGroup: () => t.createGroup(ada),
    };
  });
  afterAll(async () => {
    await t.stop();
  });

  const lastSeq = async (groupId: string) =>
    Number((await t.db!.knex('groups').where({ id: groupId }).first('last_seq')).last_seq);

  /** Sends `text` through `w`: a 422 at the field, and nothing appended to the group's log. */
  const expectRefused = async (w: TextWrite, text: string) => {
    const before = await lastSeq(f.groupId);
    const { res } = await w.send(f, text);
    expect({ write: w.name, text, status: res.status }).toEqual({ write: w.name, text, status: 422 });
    strictJson(res.bytes);
    expectValidationFailed(res as unknown as Response, w.path);
    expect(await lastSeq(f.groupId)).toBe(before);
  };

  it('refuses a member named "a\\ud800b" (was 201, with U+FFFD in the row and the surrogate in the event)', async () => {
    await expectRefused(write('POST /v1/groups/{id}/members name (a pending member)'), 'a\ud800b');
    // the log stays readable by a strict parser
    await strictEvents(t, ada, f.groupId);
  });

  it.each(TEXT_WRITES.map((w) => [w.name, w] as const))('refuses lone surrogates in %s', async (_, w) => {
    for (const text of ['a\ud800b', 'x\udfff', '\ud83d', 'end\ud83d']) await expectRefused(w, text);
  });

  it.each(NAMES.map((w) => [w.name, w] as const))(
    '%s: counts code points, refuses controls and bidi',
    async (_, w) => {
      const max = w.rule.max;
      // 100 emoji are 200 UTF-16 units: a name of 100 characters all the same
      const fits = await w.send(f, '😀'.repeat(max));
      expect({ write: w.name, ok: fits.res.status < 300 }).toEqual({ write: w.name, ok: true });
      expect(w.answered(fits.res.body)).toBe('😀'.repeat(max));
      await expectRefused(w, '😀'.repeat(max + 1));
      await expectRefused(w, 'x'.repeat(max + 1));
      for (const c of [
        '\u0007',
        '\u001b',
        '\u202e',
        '\u202a',
        '\u2066',
        '\u2069',
        '\u0085',
        '\n',
        '\t',
        '\u2028',
      ]) {
        await expectRefused(w, `Zed${c}Evil`);
      }
    },
  );

  it.each(FREE.map((w) => [w.name, w] as const))(
    '%s: keeps line feeds and tabs, refuses other controls',
    async (_, w) => {
      const text = 'Line one\n\tline two 😀';
      const kept = await w.send(f, text);
      expect({ write: w.name, ok: kept.res.status < 300 }).toEqual({ write: w.name, ok: true });
      expect(w.answered(kept.res.body)).toBe(text);
      for (const c of ['\u0007', '\u001b', '\r', '\u000b', '\u007f', '\u0085'])
        await expectRefused(w, `a${c}b`);
      // its length in code points too
      await expectRefused(w, '😀'.repeat(w.rule.max + 1));
    },
  );

  it('stores the same text in the row, the event and every answer (combining marks, emoji, RTL)', async () => {
    const text = 'Zoë e\u0301 👩‍💻 שלום';
    for (const w of TEXT_WRITES) {
      const { res, groupId } = await w.send(f, text);
      expect({ write: w.name, ok: res.status < 300 }).toEqual({ write: w.name, ok: true });
      expect({ write: w.name, answer: w.answered(res.body) }).toEqual({ write: w.name, answer: text });
      expect({ write: w.name, row: await w.stored(t.db!.knex, res.body) }).toEqual({
        write: w.name,
        row: text,
      });
      if (w.inEvent && groupId) {
        const events = await strictEvents(t, ada, groupId);
        const last = events[events.length - 1];
        expect({ write: w.name, event: last && w.inEvent(last.data) }).toEqual({
          write: w.name,
          event: text,
        });
      }
    }
    // NFC is not applied: e + U+0301 stays two code points, as sent
    const group = await strictGet(t, ada, `/v1/groups/${f.groupId}`);
    expect(group['name']).toBe(text);
    expect((group['members'] as { name: string }[]).map((m) => m.name)).toContain(text);
  });
});
