import { newKey, startTestServer, type TestServer } from '../support/test-server';

describe('main flow on real PostgreSQL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('registers, creates a group and an expense, and reads balances', async () => {
    const ada = await t.register('Ada');
    const bob = await t.register('Bob');
    const cy = await t.register('Cy');
    const groupId = await t.createGroup(ada, [bob, cy]);
    const res = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Dinner',
        amount: 100000,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id, bob.id, cy.id] },
      });
    expect(res.status).toBe(201);
    expect(res.body.shares.map((s: { owed: number }) => s.owed)).toEqual([33334, 33333, 33333]);
    const balances = await t.request.get(`/v1/groups/${groupId}/balances`).set(ada.auth);
    expect(balances.status).toBe(200);
    expect(balances.body.currencies[0].members).toEqual([
      { userId: ada.id, net: 66666 },
      { userId: bob.id, net: -33333 },
      { userId: cy.id, net: -33333 },
    ]);
    expect(balances.body.asOfSeq).toBe(4);
  });
});
