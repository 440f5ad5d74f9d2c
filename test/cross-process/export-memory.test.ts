import { downloadMeasuringRss, seedExpenses } from '../support/export-load';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { uniqueEmail } from '../support/test-server';

const ROWS = 100_000;
/**
 * A generous bound on how much the server's RSS may grow while it streams the file (about 10 MB):
 * an export that built the file or held its 100,000 rows would grow by a multiple of the file; the
 * margin is for V8, which lets its heap grow by tens of MB before collecting (docs/CAPACITY.md has
 * the figures at 10,000 and 100,000 rows).
 */
const MAX_RSS_GROWTH = 96 * 1024 * 1024;

/** API.md §11.1: a 100,000-expense CSV leaves the server's memory flat (keyset pages, backpressure). */
describe('CSV export of 100,000 expenses', () => {
  let db: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    server = await spawnServer({ DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
  }, 120_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await db?.drop();
  });

  it('streams every row while the server process RSS grows by less than 96 MiB', async () => {
    const register = async (name: string) => {
      const res = await fetch(`${server.url}/v1/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail(name), name, password: 'correct horse battery' }),
      });
      return (await res.json()) as { user: { id: string }; accessToken: string };
    };
    const ada = await register('Ada');
    const bob = await register('Bob');
    const auth = { Authorization: `Bearer ${ada.accessToken}` };
    const group = (await (
      await fetch(`${server.url}/v1/groups`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Big', currency: 'USD' }),
      })
    ).json()) as { id: string };
    await fetch(`${server.url}/v1/groups/${group.id}/members`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: bob.user.id }),
    });
    await seedExpenses(db.knex, {
      groupId: group.id,
      payerId: ada.user.id,
      otherId: bob.user.id,
      count: ROWS,
    });

    const url = `${server.url}/v1/groups/${group.id}/export.csv`;
    const pid = server.child.pid as number;
    // The first download warms the process up (code compiled, pool connections open).
    const warm = await downloadMeasuringRss(url, auth, pid, 0);
    expect(warm.rows).toBe(ROWS + 1);
    const measured = await downloadMeasuringRss(url, auth, pid);
    expect(measured.rows).toBe(ROWS + 1);
    expect(measured.bytes).toBe(warm.bytes);
    console.log(
      `export of ${ROWS} rows (${(measured.bytes / 1e6).toFixed(1)} MB): server RSS ${(measured.rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(measured.rssPeak / 2 ** 20).toFixed(0)} MiB; first download peak ${(warm.rssPeak / 2 ** 20).toFixed(0)} MiB from ${(warm.rssBefore / 2 ** 20).toFixed(0)} MiB`,
    );
    expect(measured.rssPeak - measured.rssBefore).toBeLessThan(MAX_RSS_GROWTH);
  }, 600_000);
});
