/**
 * Settling in one currency (API.md §6): a group's own exchange rates and balances converted with
 * them, the 422s that name a currency, minor units of JPY and KWD, the SDK end to end and the
 * embedded database. With the ECB's reference rates: fx-ecb.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { RateUnavailableError, TallyClient, ValidationFailedError } from '../../packages/client/src';
import { spawnServer } from '../support/server-process';
import { newKey, startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { type Converted, netsOf, spend } from './fx-fixture';

describe('group rates and converted balances, without a provider', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    eve = await t.register('Eve');
  });
  afterAll(async () => {
    await t?.stop();
  });

  const putRates = (user: TestUser, groupId: string, body: unknown) =>
    t.request
      .put(`/v1/groups/${groupId}/rates`)
      .set(user.auth)
      .send(body as object);
  const converted = (user: TestUser, groupId: string, currency: string) =>
    t.request.get(`/v1/groups/${groupId}/balances?in=${currency}`).set(user.auth);

  it('sets the group’s rates, reads them back, appends rates.updated once, and changes nothing on the same PUT', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const before = await t.request.get(`/v1/groups/${groupId}/rates`).set(bob.auth);
    expect(before.body).toEqual({
      groupId,
      base: null,
      rates: {},
      asOf: null,
      updatedBy: null,
      updatedAt: null,
    });

    const body = { base: 'EUR', rates: { USD: '1.1414', JPY: '126.98' }, asOf: '2018-12-21' };
    const res = await putRates(ada, groupId, body).expect(200);
    expect(res.body).toEqual({
      groupId,
      base: 'EUR',
      rates: { JPY: '126.98', USD: '1.1414' },
      asOf: '2018-12-21',
      updatedBy: ada.id,
      updatedAt: expect.any(String),
    });
    expect((await t.request.get(`/v1/groups/${groupId}/rates`).set(bob.auth)).body).toEqual(res.body);

    const again = await putRates(bob, groupId, { ...body, rates: { JPY: '126.98', USD: '1.1414' } }).expect(
      200,
    );
    expect(again.body).toEqual(res.body);
    const events = await t.request.get(`/v1/groups/${groupId}/events`).set(ada.auth).expect(200);
    const rateEvents = events.body.data.filter((e: { type: string }) => e.type === 'rates.updated');
    expect(rateEvents).toEqual([
      expect.objectContaining({ type: 'rates.updated', actorId: ada.id, seq: 3, data: { rates: res.body } }),
    ]);
  });

  it('replays a keyed PUT of rates from its record', async () => {
    const groupId = await t.createGroup(ada);
    const key = newKey();
    const send = (rate: string) =>
      t.request
        .put(`/v1/groups/${groupId}/rates`)
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send({ base: 'USD', rates: { INR: rate }, asOf: '2026-11-25' });
    const first = await send('84.5').expect(200);
    const replay = await send('84.5').expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await send('85')).status).toBe(409);
  });

  it.each([
    ['a key that is not a currency code', { XYZ: '1.5' }, 'rates.XYZ'],
    ['the base as a key', { EUR: '1' }, 'rates.EUR'],
    ['a rate with an exponent', { USD: '1e3' }, 'rates.USD'],
    ['a negative rate', { USD: '-1.1' }, 'rates.USD'],
    ['a zero rate', { USD: '0.000' }, 'rates.USD'],
    ['a rate of 13 significant digits', { USD: '1.234567890123' }, 'rates.USD'],
    ['a rate given as a number', { USD: 1.1414 }, 'rates.USD'],
  ])('refuses %s with 422 validation_failed at its path', async (_what, rates, path) => {
    const groupId = await t.createGroup(ada);
    const res = await putRates(ada, groupId, { base: 'EUR', rates, asOf: '2026-11-25' });
    expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect((await t.request.get(`/v1/groups/${groupId}/rates`).set(ada.auth)).body.base).toBeNull();
  });

  it.each(['2026-02-30', '2026-13-01', '2025-02-29', '0000-01-01'])(
    'refuses asOf %s, which is not a day of the calendar',
    async (asOf) => {
      const groupId = await t.createGroup(ada);
      const res = await putRates(ada, groupId, { base: 'EUR', rates: {}, asOf });
      expect([res.status, res.body.errors]).toEqual([
        422,
        [{ path: 'asOf', message: 'must be a real date, YYYY-MM-DD' }],
      ]);
    },
  );

  it('answers 404 to a non-member, for the rates and the converted balances alike', async () => {
    const groupId = await t.createGroup(ada);
    expect((await t.request.get(`/v1/groups/${groupId}/rates`).set(eve.auth)).status).toBe(404);
    expect((await converted(eve, groupId, 'EUR')).status).toBe(404);
    const put = await putRates(eve, groupId, { base: 'EUR', rates: {}, asOf: '2026-11-25' });
    expect([put.status, put.body.code]).toEqual([404, 'not_found']);
  });

  it('leaves the balances unchanged without `in`, and refuses an `in` that is not a currency code', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 1000, 'INR', [ada, bob]);
    const plain = await t.request.get(`/v1/groups/${groupId}/balances`).set(ada.auth).expect(200);
    expect(plain.body.converted).toBeUndefined();
    expect(Object.keys(plain.body).sort()).toEqual(['asOfSeq', 'currencies', 'groupId', 'simplifyDebts']);
    for (const bad of ['eur', 'EURO', 'XYZ', '']) {
      const res = await converted(ada, groupId, bad);
      expect([bad, res.status, res.body.code]).toEqual([bad, 422, 'validation_failed']);
    }
    const unknownParameter = await t.request.get(`/v1/groups/${groupId}/balances?sort=x`).set(ada.auth);
    expect(unknownParameter.status).toBe(422);
  });

  it('needs no rate when every balance is already in the asked currency', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 1001, 'INR', [ada, bob]);
    const res = await converted(ada, groupId, 'INR').expect(200);
    expect(res.body.converted).toEqual({
      currency: 'INR',
      members: [
        { userId: ada.id, net: 500 },
        { userId: bob.id, net: -500 },
      ],
      simplified: [{ from: bob.id, to: ada.id, amount: 500 }],
      original: [{ from: bob.id, to: ada.id, amount: 500 }],
      rates: [],
    });
  });

  it('answers 422 rate_unavailable naming every currency without a rate', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 1000, 'INR', [ada, bob]);
    await spend(t, bob, groupId, 1000, 'USD', [ada, bob]);
    const none = await converted(ada, groupId, 'EUR');
    expect([none.status, none.body.code]).toEqual([422, 'rate_unavailable']);
    expect(none.body.detail).toContain('INR, USD');
    // Without any rate, the target has none either (rates are quoted against a base).
    expect(none.body.errors).toEqual([
      { path: 'currencies.INR', message: 'no exchange rate for INR' },
      { path: 'currencies.USD', message: 'no exchange rate for USD' },
      { path: 'in', message: 'no exchange rate for EUR' },
    ]);
    await putRates(ada, groupId, { base: 'EUR', rates: { INR: '80.04' }, asOf: '2018-12-21' }).expect(200);
    const some = await converted(ada, groupId, 'EUR');
    expect([some.status, some.body.errors]).toEqual([
      422,
      [{ path: 'currencies.USD', message: 'no exchange rate for USD' }],
    ]);
    const target = await converted(ada, groupId, 'GBP');
    expect(target.body.errors).toEqual([
      { path: 'currencies.USD', message: 'no exchange rate for USD' },
      { path: 'in', message: 'no exchange rate for GBP' },
    ]);
    const noUnit = await converted(ada, groupId, 'XDR');
    expect([noUnit.status, noUnit.body.code, noUnit.body.errors]).toEqual([
      422,
      'rate_unavailable',
      [{ path: 'in', message: 'XDR has no ISO 4217 minor unit' }],
    ]);
  });

  it('converts into yen (no decimals) and dinars (three) with the group’s rates, the nets adding up to 0', async () => {
    const groupId = await t.createGroup(ada, [bob, eve]);
    await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: eve.id });
    // 100.00 USD paid by Ada for all three; 12698 JPY paid by Bob for Bob and Eve.
    await spend(t, ada, groupId, 10000, 'USD', [ada, bob, eve]);
    await spend(t, bob, groupId, 12698, 'JPY', [bob, eve]);
    await putRates(ada, groupId, {
      base: 'EUR',
      rates: { USD: '1.1414', JPY: '126.98', KWD: '0.3467' },
      asOf: '2018-12-21',
    }).expect(200);

    const yen = (await converted(bob, groupId, 'JPY').expect(200)).body.converted as Converted;
    // USD nets 6666, −3333, −3333 cents → × 126.98 / 1.1414 / 100 yen: 7415.77…, −3707.88…, −3707.88…
    // JPY nets 0, 6349, −6349. Floors 7415, 2641, −10057 leave 1 yen, to the largest remainder (Ada's .77).
    expect(netsOf(yen)).toEqual({ [ada.id]: 7416, [bob.id]: 2641, [eve.id]: -10057 });
    expect(yen.rates).toEqual([
      { currency: 'JPY', base: 'EUR', rate: '126.98', source: 'group', asOf: '2018-12-21' },
      { currency: 'USD', base: 'EUR', rate: '1.1414', source: 'group', asOf: '2018-12-21' },
    ]);
    expect(yen.simplified).toEqual([
      { from: eve.id, to: ada.id, amount: 7416 },
      { from: eve.id, to: bob.id, amount: 2641 },
    ]);
    // The original debts in yen: Bob and Eve each owe Ada 3333 cents (3707.88… yen), Eve owes Bob
    // 6349 yen. Rounded down (3707, 3707, 6349) they leave Ada 2 yen short of 7416 and Bob and Eve 1
    // over: settled as `simplified` settles, one yen from each to Ada. Each member's debts add up to
    // their converted net.
    expect(yen.original).toHaveLength(3);
    expect(yen.original).toEqual(
      expect.arrayContaining([
        { from: bob.id, to: ada.id, amount: 3708 },
        { from: eve.id, to: ada.id, amount: 3708 },
        { from: eve.id, to: bob.id, amount: 6349 },
      ]),
    );

    const dinars = (await converted(bob, groupId, 'KWD').expect(200)).body.converted as Converted;
    // In fils (1/1000 KWD): USD 6666 cents → 66.66 / 1.1414 × 0.3467 × 1000 = 20247.97…;
    // JPY 6349 → 6349 / 126.98 × 0.3467 × 1000 = 17335 exactly.
    expect(netsOf(dinars)).toEqual({ [ada.id]: 20248, [bob.id]: 7211, [eve.id]: -27459 });
    expect(dinars.members.reduce((sum, m) => sum + m.net, 0)).toBe(0);
  });

  it('counts a settlement made in the settle currency against the converted debt', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 10000, 'USD', [ada, bob]);
    await putRates(ada, groupId, { base: 'EUR', rates: { USD: '1.1414' }, asOf: '2018-12-21' }).expect(200);
    const owed = (await converted(bob, groupId, 'EUR').expect(200)).body.converted as Converted;
    // 50.00 USD = 43.805… EUR: Bob owes 4381 cents.
    expect(owed.simplified).toEqual([{ from: bob.id, to: ada.id, amount: 4381 }]);

    await t.request
      .post('/v1/settlements')
      .set(bob.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 4381, currency: 'EUR' })
      .expect(201);
    const after = await converted(bob, groupId, 'EUR').expect(200);
    expect(netsOf(after.body.converted)).toEqual({ [ada.id]: 0, [bob.id]: 0 });
    expect(after.body.converted.simplified).toEqual([]);
    // The balances themselves stay per currency: USD still owed, EUR paid.
    expect(after.body.currencies.map((c: { currency: string }) => c.currency)).toEqual(['EUR', 'USD']);
  });
});

describe('converted balances through the SDK', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('sets and reads the group’s rates and reads balances in one currency, with typed errors', async () => {
    const client = () =>
      new TallyClient({ baseUrl: t.url, retry: { baseDelayMs: 10, attemptTimeoutMs: 5000 } });
    const ada = client();
    const bob = client();
    const adaSession = await ada.auth.register({
      email: uniqueEmail('ada'),
      name: 'Ada',
      password: 'correct horse',
    });
    const bobSession = await bob.auth.register({
      email: uniqueEmail('bob'),
      name: 'Bob',
      password: 'correct horse',
    });
    const group = await ada.groups.create({ name: 'Lisbon', currency: 'EUR' });
    await ada.groups.addMember(group.id, { userId: bobSession.user.id });
    await ada.expenses.create({
      groupId: group.id,
      description: 'Hotel',
      amount: 30000,
      currency: 'USD',
      paidBy: adaSession.user.id,
      split: { type: 'equal', between: [adaSession.user.id, bobSession.user.id] },
    });

    const missing = await bob.groups.balances(group.id, { in: 'EUR' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(RateUnavailableError);
    expect((missing as RateUnavailableError).errors).toEqual([
      { path: 'currencies.USD', message: 'no exchange rate for USD' },
      { path: 'in', message: 'no exchange rate for EUR' },
    ]);
    const invalid = await ada.groups
      .setRates(group.id, { base: 'EUR', rates: { USD: '1,1414' }, asOf: '2018-12-21' })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ValidationFailedError);

    const set = await ada.groups.setRates(group.id, {
      base: 'EUR',
      rates: { USD: '1.1414' },
      asOf: '2018-12-21',
    });
    expect(await bob.groups.rates(group.id)).toEqual(set);
    const balances = await bob.groups.balances(group.id, { in: 'EUR' });
    // 150.00 USD = 131.4176… EUR.
    expect(balances.converted).toEqual({
      currency: 'EUR',
      members: [
        { userId: adaSession.user.id, net: 13142 },
        { userId: bobSession.user.id, net: -13142 },
      ],
      simplified: [{ from: bobSession.user.id, to: adaSession.user.id, amount: 13142 }],
      original: [{ from: bobSession.user.id, to: adaSession.user.id, amount: 13142 }],
      rates: [{ currency: 'USD', base: 'EUR', rate: '1.1414', source: 'group', asOf: '2018-12-21' }],
    });
    expect((await bob.groups.balances(group.id)).converted).toBeUndefined();
  });
});

describe('group rates on the embedded database (PGlite, as `npm start` runs)', () => {
  // A real server process: PGlite needs dynamic import(), which jest's sandbox refuses (see
  // embedded-smoke.test.ts).
  let dataDir: string;
  let proc: Awaited<ReturnType<typeof spawnServer>>;
  let api: ReturnType<typeof request.agent>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-fx-embedded-'));
    proc = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    api = request.agent(proc.url);
  });
  afterAll(async () => {
    await proc?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores the rates and converts with them', async () => {
    const register = async (name: string) => {
      const res = await api
        .post('/v1/auth/register')
        .send({ email: uniqueEmail(name), name, password: 'correct horse battery' })
        .expect(201);
      return { id: res.body.user.id as string, auth: { Authorization: `Bearer ${res.body.accessToken}` } };
    };
    const ada = await register('Ada');
    const bob = await register('Bob');
    const group = await api.post('/v1/groups').set(ada.auth).send({ name: 'Trip' }).expect(201);
    const groupId: string = group.body.id;
    await api.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: bob.id }).expect(201);
    await api
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Hotel',
        amount: 10000,
        currency: 'USD',
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id, bob.id] },
      })
      .expect(201);
    const body = { base: 'EUR', rates: { USD: '1.25' }, asOf: '2026-11-25' };
    await api.put(`/v1/groups/${groupId}/rates`).set(ada.auth).send(body).expect(200);
    const rates = await api.get(`/v1/groups/${groupId}/rates`).set(bob.auth).expect(200);
    expect(rates.body).toMatchObject(body);
    const res = await api.get(`/v1/groups/${groupId}/balances?in=EUR`).set(bob.auth).expect(200);
    expect(netsOf(res.body.converted)).toEqual({ [ada.id]: 4000, [bob.id]: -4000 });
  });
});
