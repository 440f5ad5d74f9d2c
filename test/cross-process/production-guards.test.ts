import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { postExpense, registerUser, upgradeStatus } from './http';

/**
 * A production process: the test switches (TALLY_TEST_*) are off whatever the environment says, and
 * an access token never reaches the logs, even one sent in a WebSocket URL.
 */
describe('a NODE_ENV=production process', () => {
  let db: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    server = await spawnServer({
      NODE_ENV: 'production',
      ROLE: 'all',
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      TALLY_TEST_FAULT_POINT: 'after-commit',
      TALLY_TEST_CLOCK_OFFSET_MS: '1000',
      // Everything the process can log.
      LOG_LEVEL: 'trace',
    });
  });
  afterAll(async () => {
    await server.kill('SIGKILL');
    await db.drop();
  });

  it('ignores TALLY_TEST_FAULT_POINT with a warning: a keyed write succeeds and the process lives on', async () => {
    const ada = await registerUser(server.url, 'Ada');
    const group = await fetch(`${server.url}/v1/groups`, {
      method: 'POST',
      headers: { ...ada.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Prod' }),
    });
    const groupId = ((await group.json()) as { id: string }).id;
    const body = {
      groupId,
      description: 'Chai',
      amount: 1000,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    };
    // Without the NODE_ENV guard the process SIGKILLs itself right after this commit.
    expect(await postExpense(server.url, ada, newKey(), body)).toMatchObject({
      status: 201,
      replayed: false,
    });
    expect(await postExpense(server.url, ada, newKey(), body)).toMatchObject({ status: 201 });
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const warning = server
      .output()
      .split('\n')
      .find((line) => line.includes('test-only switches are set but ignored'));
    expect(JSON.parse(warning ?? '{}')).toMatchObject({
      level: 40,
      ignored: ['TALLY_TEST_FAULT_POINT', 'TALLY_TEST_CLOCK_OFFSET_MS'],
      nodeEnv: 'production',
    });
  });

  it('refuses ?access_token= with 401 and never logs the token', async () => {
    const ada = await registerUser(server.url, 'Ada');
    const token = ada.headers['Authorization']?.replace('Bearer ', '') ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(await upgradeStatus(server.url, `/v1/ws?access_token=${token}`)).toBe(401);
    expect(await upgradeStatus(server.url, `/v1/other?access_token=${token}`)).toBe(404);
    // A plain request with the token in its query (no upgrade): 426, also unlogged.
    expect((await fetch(`${server.url}/v1/ws?access_token=${token}`)).status).toBe(426);
    expect(await upgradeStatus(server.url, '/v1/ws')).toBe(101);
    // The signature part alone is enough to recognise it.
    const signature = token.split('.')[2] ?? token;
    expect(server.output().length).toBeGreaterThan(0);
    expect(server.output()).not.toContain(signature);
  });
});
