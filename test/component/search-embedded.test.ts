/**
 * Search and comments (API.md §5.1, §5.2) on the embedded default: a server process on PGlite with
 * `pg_trgm` loaded from its contrib (`createKnex`), as `npm start` runs (in a child process: PGlite
 * needs `--experimental-vm-modules` inside jest).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { newKey, uniqueEmail } from '../support/test-server';

describe('search and comments on embedded PGlite', () => {
  let proc: ServerProcess;
  let dataDir: string;
  let agent: ReturnType<typeof request.agent>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-embedded-search-'));
    proc = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    agent = request.agent(proc.url);
  }, 120_000);
  afterAll(async () => {
    await proc?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const register = async (name: string) => {
    const res = await agent
      .post('/v1/auth/register')
      .send({ email: uniqueEmail(name), name, password: 'correct horse battery' });
    return { id: res.body.user.id as string, auth: { Authorization: `Bearer ${res.body.accessToken}` } };
  };

  it('finds expenses by accent-free words and by member, and keeps comments', async () => {
    const ada = await register('Ada');
    const bob = await register('Bob');
    const groupId = (await agent.post('/v1/groups').set(ada.auth).send({ name: 'Paris' })).body.id;
    await agent.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: bob.id });
    const post = (description: string, paidBy: string, between: string[]) =>
      agent
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ groupId, description, amount: 600, paidBy, split: { type: 'equal', between } });
    const creme = await post('Crème brûlée', bob.id, [ada.id, bob.id]);
    expect(creme.status).toBe(201);
    expect((await post('Crème solaire', ada.id, [ada.id])).status).toBe(201);
    const found = await agent
      .get(`/v1/groups/${groupId}/expenses`)
      .query({ q: 'BRULEE creme', involves: bob.id })
      .set(ada.auth);
    expect(found.status).toBe(200);
    expect(found.body.data.map((e: { id: string }) => e.id)).toEqual([creme.body.id]);
    const comment = await agent
      .post(`/v1/expenses/${creme.body.id}/comments`)
      .set(bob.auth)
      .set('Idempotency-Key', newKey())
      .send({ text: 'Délicieux' });
    expect(comment.status).toBe(201);
    const listed = await agent.get(`/v1/expenses/${creme.body.id}/comments`).set(ada.auth);
    expect(listed.body.data).toEqual([comment.body]);
  });
});
