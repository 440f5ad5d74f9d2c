/**
 * The inputs the issue measured on the embedded default (PGlite, as `npm start` runs it; a server
 * process, since PGlite needs `--experimental-vm-modules` inside jest), where they answered 500:
 * timestamps PostgreSQL cannot hold in `occurredAt`, the filters and forged cursors of every
 * time-ordered list, and a lone surrogate in a member's name that left the event log unreadable
 * to strict JSON parsers. Each is now a `422 validation_failed` naming the field, and nothing is
 * written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { newKey, uniqueEmail } from '../support/test-server';
import { strictJson } from './user-text-writes';

const forge = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
const ULID = '01JD3Q8Z4T6Y5W2N8K1M0PX7RC';
const UNSTORABLE = ['0000-01-01T00:00:00.000Z', '-000001-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z'];

describe('inputs PostgreSQL cannot hold, on embedded PGlite', () => {
  let proc: ServerProcess;
  let dataDir: string;
  let agent: ReturnType<typeof request.agent>;
  let auth: Record<string, string>;
  let userId: string;
  let groupId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-embedded-inputs-'));
    proc = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    agent = request.agent(proc.url);
    const res = await agent
      .post('/v1/auth/register')
      .send({ email: uniqueEmail('ada'), name: 'Ada', password: 'correct horse battery' });
    auth = { Authorization: `Bearer ${res.body.accessToken}` };
    userId = res.body.user.id;
    groupId = (await agent.post('/v1/groups').set(auth).send({ name: 'Trip' })).body.id;
  }, 120_000);
  afterAll(async () => {
    await proc?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const expect422 = (res: request.Response, field: string) =>
    expect({
      status: res.status,
      code: res.body.code,
      paths: res.body.errors?.map((e: { path: string }) => e.path),
    }).toEqual({
      status: 422,
      code: 'validation_failed',
      paths: [field],
    });

  it('refuses occurredAt, the filters and forged cursors with unstorable times (were 500)', async () => {
    for (const at of UNSTORABLE) {
      const posted = await agent
        .post('/v1/expenses')
        .set(auth)
        .set('Idempotency-Key', newKey())
        .send({
          groupId,
          description: 'Dinner',
          amount: 100,
          paidBy: userId,
          occurredAt: at,
          split: { type: 'equal', between: [userId] },
        });
      expect422(posted, 'occurredAt');
      for (const filter of ['from', 'to', 'updatedAfter']) {
        expect422(
          await agent
            .get(`/v1/groups/${groupId}/expenses`)
            .query({ [filter]: at })
            .set(auth),
          filter,
        );
      }
      const lists: [string, string][] = [
        ['/v1/groups', 'grp'],
        [`/v1/groups/${groupId}/expenses`, 'exp'],
        [`/v1/groups/${groupId}/recurring`, 'rec'],
        ['/v1/me/activity', 'evt'],
      ];
      for (const [list, prefix] of lists) {
        expect422(
          await agent
            .get(list)
            .query({ cursor: forge([at, `${prefix}_${ULID}`]) })
            .set(auth),
          'cursor',
        );
      }
    }
    const expenses = await agent.get(`/v1/groups/${groupId}/expenses`).set(auth);
    expect(expenses.body.data).toEqual([]);
  });

  it('refuses a member named "a\\ud800b" (was 201), and the log stays strict JSON', async () => {
    const added = await agent.post(`/v1/groups/${groupId}/members`).set(auth).send({ name: 'a\ud800b' });
    expect422(added, 'name');
    const events = await fetch(`${proc.url}/v1/groups/${groupId}/events`, { headers: auth });
    const log = strictJson(new Uint8Array(await events.arrayBuffer())) as { data: { type: string }[] };
    expect(log.data.map((e) => e.type)).toEqual(['member.added']);
  });
});
