import { newKey, type TestServer } from '../support/test-server';
import {
  answeredByMoneySuite,
  answering,
  expectEveryOperationAnswered,
  startOpenApiServer,
} from './openapi-helpers';

describe('OpenAPI document: answers (money)', () => {
  let t: TestServer;
  beforeAll(async () => {
    ({ t } = await startOpenApiServer());
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers every documented money operation as documented (status and body against the response schemas)', async () => {
    const { call, expectStatus } = answering(t);
    const cy = await t.register('Cy');
    const bob = await t.register('Bob');
    const dee = await t.register('Dee');
    const created = await call('post', '/v1/groups', {
      user: cy,
      key: true,
      body: { name: 'Trip', currency: 'EUR' },
    });
    expectStatus(created, 201);
    const groupId = created.body.id as string;
    expectStatus(
      await call('patch', `/v1/groups/${groupId}`, { user: cy, body: { description: 'Goa' } }),
      200,
    );
    for (const user of [bob, dee]) {
      expectStatus(
        await call('post', `/v1/groups/${groupId}/members`, { user: cy, body: { userId: user.id } }),
        201,
      );
    }
    // Dee leaves: the payer, commenter and reader who is no longer a member below.
    expectStatus(await call('delete', `/v1/groups/${groupId}/members/${dee.id}`, { user: cy }), 204);

    // expenses
    const dinner = {
      groupId,
      description: 'Dinner',
      amount: 1000,
      paidBy: cy.id,
      split: { type: 'equal', between: [cy.id, bob.id] },
    };
    const key = newKey();
    const expense = await call('post', '/v1/expenses', { user: cy, key, body: dinner });
    expectStatus(expense, 201);
    const expenseId = expense.body.id as string;
    const replay = await call('post', '/v1/expenses', { user: cy, key, body: dinner });
    expectStatus(replay, 201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expectStatus(
      await call('post', '/v1/expenses', { user: cy, key, body: { ...dinner, amount: 1001 } }),
      409,
    );
    expectStatus(await call('post', '/v1/expenses', { user: cy, body: dinner }), 400);
    expectStatus(
      await call('post', '/v1/expenses', { user: cy, key: true, body: { ...dinner, paidBy: dee.id } }),
      422,
    );
    expectStatus(
      await call('post', '/v1/expenses', {
        user: cy,
        key: true,
        body: { ...dinner, split: { type: 'exact', between: [{ userId: cy.id, amount: 1 }] } },
      }),
      422,
    );
    expectStatus(
      await call('post', '/v1/expenses', { user: cy, key: true, raw: { type: 'text/plain', text: 'hi' } }),
      415,
    );
    expectStatus(
      await call('post', '/v1/expenses', {
        user: cy,
        key: true,
        raw: { type: 'application/json', text: '{"groupId":' },
      }),
      400,
    );
    expectStatus(
      await call('post', '/v1/expenses', {
        user: cy,
        key: true,
        body: { ...dinner, description: 'x'.repeat(70_000) },
      }),
      413,
    );
    expectStatus(
      await call('post', '/v1/expenses', { user: bob, key: true, body: { ...dinner, groupId: 'grp_none' } }),
      404,
    );
    const fetched = await call('get', `/v1/expenses/${expenseId}`, { user: cy });
    expectStatus(fetched, 200);
    expectStatus(
      await call('get', `/v1/expenses/${expenseId}`, {
        user: cy,
        headers: { 'If-None-Match': String(fetched.headers['etag']) },
      }),
      304,
    );
    const clientId = `taxi-${Date.now()}`;
    const taxi = { ...dinner, description: 'Taxi', amount: 300, paidBy: bob.id };
    expectStatus(await call('put', `/v1/expenses/${clientId}`, { user: bob, key: true, body: taxi }), 201);
    expectStatus(
      await call('put', `/v1/expenses/${clientId}`, { user: bob, key: true, body: { ...taxi, amount: 400 } }),
      200,
    );
    expectStatus(
      await call('patch', `/v1/expenses/${clientId}`, {
        user: bob,
        key: true,
        headers: { 'If-Match': '"v99"' },
        body: { amount: 5 },
      }),
      412,
    );
    expectStatus(
      await call('patch', `/v1/expenses/${clientId}`, {
        user: bob,
        key: true,
        body: { category: 'transport' },
      }),
      200,
    );
    expectStatus(await call('delete', `/v1/expenses/${clientId}`, { user: bob, key: true }), 204);
    expectStatus(await call('get', `/v1/expenses/${clientId}`, { user: bob }), 404);
    expectStatus(await call('put', `/v1/expenses/${clientId}`, { user: bob, key: true, body: taxi }), 404);
    expectStatus(await call('post', `/v1/expenses/${clientId}/restore`, { user: bob, key: true }), 200);
    // A copy, and a negative expense (income, API.md §4).
    const copy = { occurredAt: '2026-11-20T10:00:00.000Z' };
    expectStatus(
      await call('post', `/v1/expenses/${clientId}/duplicate`, { user: bob, key: true, body: copy }),
      201,
    );
    expectStatus(
      await call('post', '/v1/expenses', { user: bob, key: true, body: { ...taxi, amount: -300 } }),
      201,
    );

    // settlements, balances and the lists
    const paidBack = { groupId, fromUserId: bob.id, toUserId: cy.id, amount: 100 };
    const settlement = await call('post', '/v1/settlements', { user: bob, key: true, body: paidBack });
    expectStatus(settlement, 201);
    expectStatus(
      await call('post', '/v1/settlements', {
        user: bob,
        key: true,
        body: { ...paidBack, toUserId: dee.id },
      }),
      422,
    );
    expectStatus(await call('get', `/v1/settlements/${settlement.body.id}`, { user: cy }), 200);
    expectStatus(await call('delete', `/v1/settlements/${settlement.body.id}`, { user: cy, key: true }), 204);
    expectStatus(await call('get', `/v1/settlements/${settlement.body.id}`, { user: cy }), 404);
    expectStatus(await call('post', '/v1/settlements', { user: bob, key: true, body: paidBack }), 201);
    expectStatus(await call('delete', `/v1/groups/${groupId}/members/${bob.id}`, { user: cy }), 409);
    expectStatus(await call('get', `/v1/groups/${groupId}/balances`, { user: cy }), 200);
    const rates = { base: 'EUR', rates: { INR: '80.0400', USD: '1.1414' }, asOf: '2018-12-21' };
    expectStatus(await call('put', `/v1/groups/${groupId}/rates`, { user: cy, body: rates }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/rates`, { user: cy }), 200);
    const splitwise = {
      format: 'splitwise-csv',
      csv: 'Date,Description,Category,Cost,Currency,Cy,Bob\r\n2024-01-05,Lunch,General,20.00,INR,10.00,-10.00\r\n',
      members: { Cy: cy.id, Bob: bob.id },
    };
    const imported = await call('post', `/v1/groups/${groupId}/imports`, {
      user: cy,
      key: true,
      body: splitwise,
    });
    expectStatus(imported, 201);
    expectStatus(await call('get', `/v1/groups/${groupId}/imports/${imported.body.id}`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/imports/imp_unknown`, { user: cy }), 404);
    const refusals = `/v1/groups/${groupId}/imports/${imported.body.id}/refusals`;
    expectStatus(await call('get', `${refusals}?limit=1`, { user: cy }), 200);
    expectStatus(await call('get', `${refusals}?cursor=not-ours`, { user: cy }), 422);
    expectStatus(await call('get', `/v1/groups/${groupId}/imports/imp_unknown/refusals`, { user: cy }), 404);
    expectStatus(await call('get', `/v1/groups/${groupId}/balances?in=EUR`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/balances?in=JPY`, { user: cy }), 422);
    expectStatus(await call('get', `/v1/groups/${groupId}/expenses?limit=1`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/settlements`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/expenses?cursor=not-ours`, { user: cy }), 422);
    // search and comments (API.md §5.1, §5.2)
    expectStatus(
      await call('get', `/v1/groups/${groupId}/expenses?q=taxi&involves=${bob.id}&includeDeleted=true`, {
        user: cy,
      }),
      200,
    );
    expectStatus(
      await call('get', `/v1/groups/${groupId}/expenses?from=2026-02-30T00:00:00Z`, { user: cy }),
      422,
    );
    const comment = await call('post', `/v1/expenses/${clientId}/comments`, {
      user: bob,
      key: true,
      body: { text: '<b>Paid</b> in cash' },
    });
    expectStatus(comment, 201);
    expectStatus(
      await call('post', `/v1/expenses/${clientId}/comments`, { user: dee, key: true, body: { text: 'x' } }),
      404,
    );
    const kept = await call('post', '/v1/settlements', { user: bob, key: true, body: paidBack });
    expectStatus(kept, 201);
    expectStatus(
      await call('post', `/v1/settlements/${kept.body.id}/comments`, {
        user: cy,
        key: true,
        body: { text: 'Thanks' },
      }),
      201,
    );
    expectStatus(await call('get', `/v1/expenses/${clientId}/comments`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/settlements/${kept.body.id}/comments?limit=1`, { user: bob }), 200);
    expectStatus(await call('delete', `/v1/comments/${comment.body.id}`, { user: cy, key: true }), 403);
    expectStatus(await call('delete', `/v1/comments/${comment.body.id}`, { user: bob, key: true }), 204);
    // the history of a record (API.md §15): the expense was put, edited, deleted and restored
    expectStatus(await call('get', `/v1/expenses/${clientId}/history?limit=2`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/expenses/${clientId}/history?limit=51`, { user: cy }), 422);
    expectStatus(await call('get', `/v1/expenses/${clientId}/history`, { user: dee }), 404);
    expectStatus(await call('get', `/v1/settlements/${kept.body.id}/history`, { user: bob }), 200);
    // categories and statistics (API.md §14)
    const trips = await call('post', `/v1/groups/${groupId}/categories`, {
      user: cy,
      key: true,
      body: { name: 'Trips', icon: '🧭', color: '#3d5a80' },
    });
    expectStatus(trips, 201);
    const outings = await call('post', `/v1/groups/${groupId}/categories`, {
      user: cy,
      key: true,
      body: { name: 'Outings' },
    });
    expectStatus(outings, 201);
    expectStatus(
      await call('post', `/v1/groups/${groupId}/categories`, {
        user: cy,
        key: true,
        body: { name: 'trips' },
      }),
      409,
    );
    expectStatus(await call('get', `/v1/groups/${groupId}/categories`, { user: bob }), 200);
    const categoryPath = `/v1/groups/${groupId}/categories/${trips.body.id}`;
    expectStatus(await call('patch', categoryPath, { user: cy, key: true, body: { name: 'Journeys' } }), 200);
    expectStatus(
      await call('post', `/v1/groups/${groupId}/categories/${outings.body.id}/merge`, {
        user: cy,
        key: true,
        body: { into: trips.body.id },
      }),
      200,
    );
    expectStatus(await call('delete', categoryPath, { user: cy, key: true }), 204);
    expectStatus(
      await call('get', `/v1/groups/${groupId}/stats?by=category&currency=EUR`, { user: cy }),
      200,
    );
    expectStatus(await call('get', `/v1/groups/${groupId}/stats?by=week`, { user: cy }), 422);
    expectStatus(await call('get', `/v1/groups/${groupId}/stats`, { user: dee }), 404);
    expectStatus(await call('get', '/v1/me/stats?by=group', { user: bob }), 200);
    // a receipt on file (API.md §16): a PDF, kept as sent, through its signed link
    const pdf = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
    const receiptPath = `/v1/expenses/${clientId}/receipt`;
    const receipt = await call('put', receiptPath, {
      user: bob,
      key: true,
      raw: { type: 'application/pdf', text: pdf },
    });
    expectStatus(receipt, 200);
    expectStatus(
      await call('put', receiptPath, {
        user: bob,
        key: true,
        raw: { type: 'image/png', text: 'not a picture' },
      }),
      415,
    );
    expectStatus(await call('get', receiptPath, { user: cy }), 200);
    expectStatus(await call('get', receipt.body.url as string), 200);
    expectStatus(await call('delete', receiptPath, { user: cy, key: true }), 204);
    expectStatus(await call('get', receiptPath, { user: cy }), 404);
    // recurring expenses (API.md §6a)
    const rent = {
      expense: {
        description: 'Rent',
        amount: 900,
        paidBy: cy.id,
        split: { type: 'equal', between: [cy.id, bob.id] },
      },
      schedule: { every: 'month', startsOn: '2030-01-31', timeZone: 'Europe/Berlin' },
    };
    const recurring = await call('post', `/v1/groups/${groupId}/recurring`, {
      user: cy,
      key: true,
      body: rent,
    });
    expectStatus(recurring, 201);
    expectStatus(await call('post', `/v1/groups/${groupId}/recurring`, { user: cy, body: rent }), 400);
    expectStatus(
      await call('post', `/v1/groups/${groupId}/recurring`, {
        user: cy,
        key: true,
        body: { ...rent, schedule: { ...rent.schedule, timeZone: 'Nowhere/Else' } },
      }),
      422,
    );
    expectStatus(await call('get', `/v1/groups/${groupId}/recurring`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/recurring/${recurring.body.id}`, { user: bob }), 200);
    expectStatus(await call('get', `/v1/recurring/${recurring.body.id}`, { user: dee }), 404);
    expectStatus(
      await call('patch', `/v1/recurring/${recurring.body.id}`, {
        user: bob,
        key: true,
        headers: { 'If-Match': '"v99"' },
        body: { expense: { amount: 5 } },
      }),
      412,
    );
    expectStatus(
      await call('patch', `/v1/recurring/${recurring.body.id}`, {
        user: bob,
        key: true,
        body: { schedule: { every: 'year' } },
      }),
      200,
    );
    expectStatus(await call('delete', `/v1/recurring/${recurring.body.id}`, { user: cy, key: true }), 204);
    expectStatus(await call('get', `/v1/recurring/${recurring.body.id}`, { user: cy }), 404);

    const events = await call('get', `/v1/groups/${groupId}/events?limit=100`, { user: cy });
    expectStatus(events, 200);
    // every event type was validated against its own schema
    const types = new Set((events.body.data as { type: string }[]).map((e) => e.type));
    expect([...types].sort()).toEqual([
      'category.created',
      'category.deleted',
      'category.merged',
      'category.updated',
      'comment.created',
      'comment.deleted',
      'expense.created',
      'expense.deleted',
      'expense.receipt_changed',
      'expense.updated',
      'group.updated',
      'import.completed',
      'import.started',
      'member.added',
      'member.removed',
      'rates.updated',
      'recurring.created',
      'recurring.deleted',
      'recurring.updated',
      'settlement.created',
      'settlement.deleted',
    ]);
    const restored = (events.body.data as { type: string; data: { restored?: boolean } }[]).filter(
      (e) => e.type === 'expense.created' && e.data.restored,
    );
    expect(restored).toHaveLength(1);

    // every money operation of the document answered with a success that was validated
    expectEveryOperationAnswered(answeredByMoneySuite);
  });
});
