import webpush from 'web-push';
import { startPushEndpoint, type TestPushEndpoint } from '../support/push-endpoint';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { startSmtpServer, type TestSmtpServer, VERIFY_SUBJECT, verifyTokenOf } from '../support/smtp-server';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';

/**
 * API.md §13: notifications are sent from the log by every API process, coordinated in PostgreSQL
 * only. Two real server processes poll as fast as they can against one database while expenses are
 * written through both; every push (decrypted by a local push service with the browser's key) and
 * every mail (a real SMTP server) arrives exactly once, and the processes' own counters of sends
 * add up to exactly the deliveries.
 */
describe('notifications across server processes', () => {
  let db: TestDatabase;
  let smtp: TestSmtpServer;
  let push: TestPushEndpoint;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    smtp = await startSmtpServer();
    push = await startPushEndpoint();
    const keys = webpush.generateVAPIDKeys();
    const env = {
      ROLE: 'api',
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      SMTP_URL: smtp.url,
      APP_URL: 'https://tally.example.com',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
      NOTIFY_POLL_MS: '20',
    };
    servers = await Promise.all([spawnServer(env), spawnServer(env)]);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    await push?.stop();
    await smtp?.stop();
    await db?.drop();
  });

  const call = async (
    base: string,
    auth: string | undefined,
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'Idempotency-Key': newKey(),
        ...(auth ? { Authorization: `Bearer ${auth}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const register = async (base: string, name: string) => {
    const email = uniqueEmail(name);
    const res = await call(base, undefined, 'POST', '/v1/auth/register', {
      email,
      name,
      password: 'correct horse battery',
    });
    expect(res.status).toBe(201);
    const token = verifyTokenOf(await smtp.waitForMail(email, { subject: VERIFY_SUBJECT }));
    expect((await call(base, undefined, 'POST', '/v1/auth/verify-email', { token })).status).toBe(204);
    return { id: res.body.user.id as string, email, auth: res.body.accessToken as string };
  };
  const sentBy = async (server: ServerProcess): Promise<number> => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    return [...metrics.matchAll(/^notifications_total\{[^}]*outcome="sent"[^}]*\} (\d+)$/gm)]
      .map((m) => Number(m[1]))
      .reduce((a, b) => a + b, 0);
  };

  it('sends each push and each mail once while two processes poll the same log', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const ada = await register(a.url, 'Ada');
    const bob = await register(b.url, 'Bob');
    const cy = await register(a.url, 'Cy');
    const group = await call(a.url, ada.auth, 'POST', '/v1/groups', { name: 'Fleet', currency: 'EUR' });
    expect(group.status).toBe(201);
    for (const user of [bob, cy]) {
      const added = await call(a.url, ada.auth, 'POST', `/v1/groups/${group.body.id}/members`, {
        userId: user.id,
      });
      expect(added.status).toBe(201);
    }
    const devices = { bob: push.device(), cy: push.device() };
    expect(
      (await call(b.url, bob.auth, 'POST', '/v1/me/push-subscriptions', devices.bob.subscription)).status,
    ).toBe(201);
    expect(
      (await call(a.url, cy.auth, 'POST', '/v1/me/push-subscriptions', devices.cy.subscription)).status,
    ).toBe(201);
    expect(
      (await call(a.url, bob.auth, 'PUT', '/v1/me/notification-settings', { expense: { email: true } }))
        .status,
    ).toBe(200);

    const EXPENSES = 12;
    for (let i = 0; i < EXPENSES; i++) {
      const via = i % 2 === 0 ? a : b;
      const res = await call(via.url, ada.auth, 'POST', '/v1/expenses', {
        groupId: group.body.id,
        description: `Round ${i}`,
        amount: 300 + i * 3,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id, bob.id, cy.id] },
      });
      expect(res.status).toBe(201);
    }

    const subject = 'Fleet: Ada added an expense';
    await until(
      () =>
        devices.bob.received.length >= EXPENSES &&
        devices.cy.received.length >= EXPENSES &&
        smtp.mailsTo(bob.email, subject).length >= EXPENSES,
      'every notification delivered',
    );
    // Everything queued is sent (nothing pending that could still arrive twice) …
    await until(async () => {
      const rows = await db
        .knex('notification_deliveries')
        .whereIn('user_id', [bob.id, cy.id])
        .where('kind', 'expense');
      return rows.length === EXPENSES * 3 && rows.every((r) => r.status === 'sent');
    }, 'every delivery marked sent');
    // … and it came once each: twelve different expenses per device and per inbox.
    for (const device of [devices.bob, devices.cy]) {
      expect(device.received).toHaveLength(EXPENSES);
      const bodies = device.received.map((p) => String(p.payload.body));
      expect(new Set(bodies).size).toBe(EXPENSES);
      expect(new Set(device.received.map((p) => p.payload.tag)).size).toBe(EXPENSES);
      expect(bodies).toContain('“Round 11”, 3.33 EUR; your share 1.11 EUR.');
    }
    const mails = smtp.mailsTo(bob.email, subject);
    expect(mails).toHaveLength(EXPENSES);
    expect(new Set(mails.map((m) => m.parsed.messageId)).size).toBe(EXPENSES);
    expect(smtp.mailsTo(cy.email, subject)).toHaveLength(0); // Cy kept expense mails off (the default)
    // The processes' own counts: exactly one send per sent delivery between the two of them (the
    // weekly digests of the three included).
    await until(
      async () => (await db.knex('notification_deliveries').where({ status: 'pending' })).length === 0,
    );
    const sent = await db.knex('notification_deliveries').where({ status: 'sent' });
    expect(sent.length).toBe(EXPENSES * 3 + 3);
    expect((await sentBy(a)) + (await sentBy(b))).toBe(sent.length);
  });
});
