/**
 * Webhooks (API.md §12) against the real server, PostgreSQL and a real HTTP receiver that verifies
 * every delivery with the `standardwebhooks` package: order per endpoint, event types, retries with
 * a receiver that fails then succeeds, the endpoint disabled when it fails for its whole window,
 * secret rotation, "send again", bounds and who may manage them.
 */

import { callJson, registerUser } from '../cross-process/http';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

type Endpoint = { id: string; secret: string; url: string; deliveredSeq: number };

describe('webhooks', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer({
      env: {
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOK_POLL_MS: '50',
        // Three quick retries: the schedule's shape, in test time.
        WEBHOOK_RETRY_DELAYS_MS: '100,100,100',
        WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  let paths = 0;
  const register = async (user: TestUser, groupId: string, body: Record<string, unknown> = {}) => {
    const path = `/hook-${++paths}`;
    const res = await t.request
      .post(`/v1/groups/${groupId}/webhooks`)
      .set(user.auth)
      .send({ url: `${receiver.url}${path}`, ...body });
    expect(res.status).toBe(201);
    return { ...(res.body as Endpoint), path };
  };
  const expense = async (groupId: string, description = 'Dinner') =>
    expect((await t.postOwnExpense(ada, groupId, newKey(), { description })).status).toBe(201);
  /** The delivery log once `count` deliveries are recorded there (a row is written after its attempt's answer). */
  const settled = async (groupId: string, id: string, count: number) => {
    let log: Awaited<ReturnType<typeof deliveries>> = [];
    await until(async () => {
      log = await deliveries(groupId, id);
      return log.length === count && log.every((d) => d.status === 'succeeded');
    }, `${count} deliveries recorded`);
    return log;
  };
  const deliveries = async (groupId: string, id: string) =>
    (await t.request.get(`/v1/groups/${groupId}/webhooks/${id}/deliveries`).set(ada.auth)).body.data as {
      id: string;
      seq: number;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastLatencyMs: number | null;
    }[];

  it('sends each event of the group once, in seq order, signed as Standard Webhooks verifies', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const hook = await register(ada, groupId);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    for (let i = 0; i < 5; i++) await expense(groupId, `Dinner ${i}`);
    await until(() => receiver.of(hook.path).length === 5, 'five deliveries');
    const got = receiver.of(hook.path);
    const seqs = got.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(5);
    expect(got.every((r) => r.type === 'expense.created')).toBe(true);
    expect(() => receiver.verifyAll(hook.path, hook.secret)).not.toThrow();
    // A wrong secret does not verify: the check above can fail.
    expect(() => receiver.verifyAll(hook.path, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)).toThrow();
    // The log: each succeeded on its first attempt, with its latency; ids are the webhook-ids.
    const log = await settled(groupId, hook.id, 5);
    expect(log.map((d) => d.seq)).toEqual([...seqs].reverse());
    expect(log.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.lastStatusCode === 204)).toBe(
      true,
    );
    expect(log.map((d) => d.id).sort()).toEqual(got.map((r) => r.id).sort());
    // The secret is shown once: not in a read.
    const read = await t.request.get(`/v1/groups/${groupId}/webhooks/${hook.id}`).set(bob.auth);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.body.deliveredSeq).toBe(Math.max(...seqs));
  });

  it('sends only the event types an endpoint names', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const hook = await register(ada, groupId, { eventTypes: ['settlement.created'] });
    await expense(groupId);
    const settled = await t.request
      .post('/v1/settlements')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 100 });
    expect(settled.status).toBe(201);
    await until(() => receiver.of(hook.path).length === 1, 'the settlement');
    await expense(groupId);
    await until(async () => {
      const read = await t.request.get(`/v1/groups/${groupId}/webhooks/${hook.id}`).set(ada.auth);
      return read.body.deliveredSeq === hook.deliveredSeq + 3;
    }, 'the cursor past the second expense');
    expect(receiver.of(hook.path).map((r) => r.type)).toEqual(['settlement.created']);
  });

  it('retries a failed delivery (honouring Retry-After) and keeps the order behind it', async () => {
    const groupId = await t.createGroup(ada);
    const hook = await register(ada, groupId);
    let calls = 0;
    const answer = receiver.answer;
    receiver.answer = (r) => {
      if (r.path !== hook.path) return answer(r);
      calls++;
      if (calls === 1) return { status: 500 };
      if (calls === 2) return { status: 429, headers: { 'Retry-After': '0' } };
      return { status: 200 };
    };
    try {
      await expense(groupId, 'First');
      await expense(groupId, 'Second');
      await until(() => receiver.of(hook.path).length === 4, 'two failures, then both events');
    } finally {
      receiver.answer = answer;
    }
    const got = receiver.of(hook.path);
    // The group's first events (its creation) came before the endpoint: seqs count from there.
    const [first, second] = [hook.deliveredSeq + 1, hook.deliveredSeq + 2];
    expect(got.map((r) => r.seq)).toEqual([first, first, first, second]);
    // Every attempt of one event carries the same webhook-id.
    expect(new Set(got.slice(0, 3).map((r) => r.id)).size).toBe(1);
    const log = await settled(groupId, hook.id, 2);
    expect(log.map((d) => [d.seq, d.status, d.attempts])).toEqual([
      [second, 'succeeded', 1],
      [first, 'succeeded', 3],
    ]);
  });

  it('disables an endpoint that fails its whole window, says why, and starts again when enabled', async () => {
    const groupId = await t.createGroup(ada);
    const hook = await register(ada, groupId);
    const answer = receiver.answer;
    receiver.answer = (r) => (r.path === hook.path ? { status: 503 } : answer(r));
    let read: { enabled: boolean; disabledReason: string | null };
    try {
      await expense(groupId);
      await until(async () => {
        read = (await t.request.get(`/v1/groups/${groupId}/webhooks/${hook.id}`).set(ada.auth)).body;
        return read.enabled === false;
      }, 'the endpoint disabled');
    } finally {
      receiver.answer = answer;
    }
    // The first attempt and the three retries of the schedule, then no more.
    expect(receiver.of(hook.path)).toHaveLength(4);
    expect(read!.disabledReason).toMatch(/4 failed attempts.*answered 503/);
    const [failed] = await deliveries(groupId, hook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 503 });
    await expense(groupId);
    const enabled = await t.request
      .patch(`/v1/groups/${groupId}/webhooks/${hook.id}`)
      .set(ada.auth)
      .send({ enabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body.disabledReason).toBeNull();
    await until(() => receiver.of(hook.path).length === 6, 'both events after enabling');
    const [first, second] = [hook.deliveredSeq + 1, hook.deliveredSeq + 2];
    expect(receiver.of(hook.path).map((r) => r.seq)).toEqual([first, first, first, first, first, second]);
  });

  it('signs with both secrets after a rotation, then with the new one only', async () => {
    const groupId = await t.createGroup(ada);
    const hook = await register(ada, groupId);
    const rotated = await t.request
      .post(`/v1/groups/${groupId}/webhooks/${hook.id}/rotate-secret`)
      .set(ada.auth)
      .send({ previousSecretSeconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(rotated.body.previousSecretExpiresAt).not.toBeNull();
    await expense(groupId);
    await until(() => receiver.of(hook.path).length === 1, 'one delivery');
    expect(receiver.of(hook.path)[0]?.signature.split(' ')).toHaveLength(2);
    // A receiver with either secret verifies it.
    receiver.verifyAll(hook.path, hook.secret);
    receiver.verifyAll(hook.path, rotated.body.secret);
    // Rotating with no grace: the old secret signs no more.
    const again = await t.request
      .post(`/v1/groups/${groupId}/webhooks/${hook.id}/rotate-secret`)
      .set(ada.auth)
      .send({ previousSecretSeconds: 0 });
    await expense(groupId);
    await until(() => receiver.of(hook.path).length === 2, 'the second delivery');
    const second = receiver.of(hook.path)[1]!;
    expect(second.signature.split(' ')).toHaveLength(1);
    receiver.received.splice(receiver.received.indexOf(receiver.of(hook.path)[0]!), 1);
    receiver.verifyAll(hook.path, again.body.secret);
    expect(() => receiver.verifyAll(hook.path, rotated.body.secret)).toThrow();
  });

  it('sends a delivery again on request, with the same webhook-id', async () => {
    const groupId = await t.createGroup(ada);
    const hook = await register(ada, groupId);
    await expense(groupId);
    await until(() => receiver.of(hook.path).length === 1, 'one delivery');
    const [delivery] = await settled(groupId, hook.id, 1);
    const resend = await t.request
      .post(`/v1/groups/${groupId}/webhooks/${hook.id}/deliveries/${delivery!.id}/resend`)
      .set(ada.auth);
    expect(resend.status).toBe(202);
    expect(resend.body.resendRequested).toBe(true);
    await until(() => receiver.of(hook.path).length === 2, 'the delivery again');
    const [first, second] = receiver.of(hook.path);
    expect(second!.id).toBe(first!.id);
    expect(second!.body).toBe(first!.body);
    const missing = await t.request
      .post(`/v1/groups/${groupId}/webhooks/${hook.id}/deliveries/msg_nothing_1/resend`)
      .set(ada.auth);
    expect(missing.status).toBe(404);
  });

  it('pages the delivery log', async () => {
    const groupId = await t.createGroup(ada);
    const hook = await register(ada, groupId);
    for (let i = 0; i < 3; i++) await expense(groupId);
    await settled(groupId, hook.id, 3);
    const base = `/v1/groups/${groupId}/webhooks/${hook.id}/deliveries`;
    const first = await t.request.get(`${base}?limit=2`).set(ada.auth);
    const seq = (n: number) => hook.deliveredSeq + n;
    expect(first.body.data.map((d: { seq: number }) => d.seq)).toEqual([seq(3), seq(2)]);
    const next = await t.request.get(`${base}?limit=2&cursor=${first.body.nextCursor}`).set(ada.auth);
    expect(next.body.data.map((d: { seq: number }) => d.seq)).toEqual([seq(1)]);
    expect(next.body.nextCursor).toBeNull();
    expect((await t.request.get(`${base}?cursor=nonsense`).set(ada.auth)).status).toBe(422);
  });

  it('skips what retention dropped before an endpoint got it, and counts it', async () => {
    const groupId = await t.createGroup(ada);
    const hook = await register(ada, groupId);
    const one = `/v1/groups/${groupId}/webhooks/${hook.id}`;
    expect((await t.request.patch(one).set(ada.auth).send({ enabled: false })).status).toBe(200);
    for (let i = 0; i < 3; i++) await expense(groupId);
    // Retention drops the oldest events (whole partitions, API.md §9): the first two are gone.
    await t
      .db!.knex('events')
      .where({ group_id: groupId })
      .where('seq', '<=', hook.deliveredSeq + 2)
      .delete();
    expect((await t.request.patch(one).set(ada.auth).send({ enabled: true })).status).toBe(200);
    await expense(groupId);
    await until(() => receiver.of(hook.path).length === 2, 'the events still kept');
    expect(receiver.of(hook.path).map((r) => r.seq)).toEqual([hook.deliveredSeq + 3, hook.deliveredSeq + 4]);
    const read = await t.request.get(one).set(ada.auth);
    expect(read.body.skippedEvents).toBe(2);
  });

  it('stops an endpoint whose creator left the group', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const hook = await register(bob, groupId);
    const removed = await t.request
      .delete(`/v1/groups/${groupId}/members/${bob.id}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey());
    expect(removed.status).toBe(204);
    await until(async () => {
      const read = await t.request.get(`/v1/groups/${groupId}/webhooks/${hook.id}`).set(ada.auth);
      return read.body.enabled === false;
    }, 'the endpoint disabled');
    const read = await t.request.get(`/v1/groups/${groupId}/webhooks/${hook.id}`).set(ada.auth);
    expect(read.body.disabledReason).toMatch(/creator is no longer a member/);
    expect(receiver.of(hook.path)).toHaveLength(0);
  });

  it('refuses what is out of bounds or not the caller’s, and writes nothing', async () => {
    const groupId = await t.createGroup(ada);
    const base = `/v1/groups/${groupId}/webhooks`;
    const post = (body: unknown, user = ada) =>
      t.request
        .post(base)
        .set(user.auth)
        .send(body as object);
    expect((await post({ url: 'ftp://example.com/x' })).body.code).toBe('validation_failed');
    expect((await post({ url: 'https://user:pw@example.com/x' })).body.code).toBe('validation_failed');
    expect((await post({ url: `https://example.com/${'a'.repeat(2048)}` })).status).toBe(422);
    expect((await post({ url: 'https://example.com', eventTypes: ['no.such'] })).status).toBe(422);
    expect((await post({ url: 'https://example.com' }, bob)).status).toBe(404);
    for (let i = 0; i < 10; i++) expect((await post({ url: `https://example.com/${i}` })).status).toBe(201);
    const over = await post({ url: 'https://example.com/11' });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      code: 'limit_exceeded',
      limit: { name: 'endpointsPerGroup', max: 10 },
    });
    const list = await t.request.get(base).set(ada.auth);
    expect(list.body.data).toHaveLength(10);
    const one = list.body.data[0].id as string;
    expect((await t.request.get(`${base}/${one}`).set(bob.auth)).status).toBe(404);
    expect((await t.request.delete(`${base}/${one}`).set(bob.auth)).status).toBe(404);
    expect((await t.request.delete(`${base}/${one}`).set(ada.auth)).status).toBe(204);
    expect((await t.request.get(`${base}/${one}`).set(ada.auth)).status).toBe(404);
  });
});

describe('webhooks without private addresses allowed', () => {
  let t: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    t = await startTestServer({ env: { WEBHOOK_POLL_MS: '50' } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it.each([
    'http://127.0.0.1:9/x',
    'http://[::1]/x',
    'http://localhost/x',
    'http://169.254.169.254/latest',
    'http://[::ffff:10.0.0.1]/',
  ])('refuses to register %s', async (url) => {
    const groupId = await t.createGroup(ada);
    const res = await t.request.post(`/v1/groups/${groupId}/webhooks`).set(ada.auth).send({ url });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe('url');
  });
});

describe('webhooks on the embedded database (the default, one connection)', () => {
  // A server process on PGlite (no DATABASE_URL): jest's sandbox cannot load PGlite in-process
  // without --experimental-vm-modules (see embedded-smoke.test.ts).
  let server: ServerProcess;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await spawnServer({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '50' });
  }, 120_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await receiver?.close();
  });

  it('delivers in order there too', async () => {
    const ada = await registerUser(server.url, 'Ada');
    const groupId = (await callJson(server.url, ada, 'POST', '/v1/groups', { name: 'Flat' })).id as string;
    const hook = await callJson(server.url, ada, 'POST', `/v1/groups/${groupId}/webhooks`, {
      url: `${receiver.url}/embedded`,
    });
    for (let i = 0; i < 3; i++) {
      await callJson(server.url, ada, 'POST', '/v1/expenses', {
        groupId,
        description: 'Dinner',
        amount: 100,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      });
    }
    await until(() => receiver.of('/embedded').length === 3, 'three deliveries');
    const from = hook.deliveredSeq as number;
    expect(receiver.of('/embedded').map((r) => r.seq)).toEqual([from + 1, from + 2, from + 3]);
    receiver.verifyAll('/embedded', hook.secret as string);
  });
});
