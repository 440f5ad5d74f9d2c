/**
 * Balances converted with the ECB's reference rates (API.md §6): a real `eurofxref-daily.xml` served
 * by a local HTTP server, fetched once and combined with a group's own rates; and the answers while
 * the ECB is unreachable or sends far too much.
 */
import { type EcbServer, startEcbServer } from '../support/ecb-server';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { type Converted, netsOf, spend } from './fx-fixture';

describe('converted balances with the ECB’s reference rates (a local HTTP server serving a real document)', () => {
  let ecb: EcbServer;
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ecb = await startEcbServer();
    t = await startTestServer({
      env: { FX_PROVIDER: 'ecb', FX_ECB_URL: ecb.url, FX_CACHE_SECONDS: '3600', FX_FETCH_TIMEOUT_MS: '2000' },
    });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t?.stop();
    await ecb?.close();
  });

  const converted = (groupId: string, currency: string) =>
    t.request.get(`/v1/groups/${groupId}/balances?in=${currency}`).set(ada.auth);

  it('converts with the ECB’s rates, fetched once, listing each rate with its source and day', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 8004, 'INR', [ada, bob]);
    await spend(t, bob, groupId, 22828, 'USD', [ada, bob]);
    const res = await converted(groupId, 'EUR').expect(200);
    const c = res.body.converted as Converted;
    expect(c.rates).toEqual([
      { currency: 'INR', base: 'EUR', rate: '80.0400', source: 'ecb', asOf: '2018-12-21' },
      { currency: 'USD', base: 'EUR', rate: '1.1414', source: 'ecb', asOf: '2018-12-21' },
    ]);
    // INR: Ada +4002 paise = 0.50 EUR; USD: Bob +11414 cents = 100.00 EUR. Both exact.
    expect(netsOf(c)).toEqual({ [ada.id]: 50 - 10000, [bob.id]: 10000 - 50 });
    const requests = ecb.requests();
    await converted(groupId, 'JPY').expect(200);
    await converted(groupId, 'GBP').expect(200);
    expect(ecb.requests()).toBe(requests);
    // A currency the ECB does not publish: 422 naming it.
    const kwd = await converted(groupId, 'KWD');
    expect([kwd.status, kwd.body.code, kwd.body.errors]).toEqual([
      422,
      'rate_unavailable',
      [{ path: 'in', message: 'no exchange rate for KWD' }],
    ]);
  });

  it('takes the group’s rate where it gives one and the ECB’s for the rest, through the group’s base', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 8004, 'INR', [ada, bob]);
    await spend(t, bob, groupId, 20000, 'USD', [ada, bob]);
    // The group's base is USD and it gives INR only: EUR comes from the ECB, linked through USD.
    await t.request
      .put(`/v1/groups/${groupId}/rates`)
      .set(ada.auth)
      .send({ base: 'USD', rates: { INR: '70' }, asOf: '2018-12-20' })
      .expect(200);
    const c = (await converted(groupId, 'EUR').expect(200)).body.converted as Converted;
    // EUR is the ECB's base; USD's ECB rate links the group's base to it.
    expect(c.rates).toEqual([
      { currency: 'INR', base: 'USD', rate: '70', source: 'group', asOf: '2018-12-20' },
      { currency: 'USD', base: 'EUR', rate: '1.1414', source: 'ecb', asOf: '2018-12-21' },
    ]);
    // INR 4002 paise = 40.02 / 70 USD = 0.5717… USD = 0.50089… EUR; USD 10000 cents = 87.6116… EUR.
    // Ada: +50.089… − 8761.16… = −8711.07… cents; Bob: +8711.07….
    expect(netsOf(c)).toEqual({ [ada.id]: -8711, [bob.id]: 8711 });

    // The group's own USD rate wins over the ECB's.
    await t.request
      .put(`/v1/groups/${groupId}/rates`)
      .set(ada.auth)
      .send({ base: 'EUR', rates: { USD: '1.25' }, asOf: '2026-11-25' })
      .expect(200);
    const overridden = (await converted(groupId, 'EUR').expect(200)).body.converted as Converted;
    expect(overridden.rates).toEqual([
      { currency: 'INR', base: 'EUR', rate: '80.0400', source: 'ecb', asOf: '2018-12-21' },
      { currency: 'USD', base: 'EUR', rate: '1.25', source: 'group', asOf: '2026-11-25' },
    ]);
    // INR 4002 paise = 0.50 EUR; USD 10000 cents = 80.00 EUR.
    expect(netsOf(overridden)).toEqual({ [ada.id]: 50 - 8000, [bob.id]: 8000 - 50 });
  });
});

describe('converted balances while the ECB is unreachable', () => {
  let ecb: EcbServer;
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ecb = await startEcbServer();
    t = await startTestServer({ env: { FX_PROVIDER: 'ecb', FX_ECB_URL: ecb.url } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t?.stop();
    await ecb?.close();
  });

  const converted = (groupId: string, currency: string) =>
    t.request.get(`/v1/groups/${groupId}/balances?in=${currency}`).set(ada.auth);

  it('answers 503 while the ECB has not answered, unless the group’s rates cover everything', async () => {
    ecb.serve({ status: 502, body: 'bad gateway' });
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 10000, 'USD', [ada, bob]);
    const down = await converted(groupId, 'EUR');
    expect([down.status, down.body.code, down.headers['retry-after']]).toEqual([503, 'unavailable', '10']);
    await t.request
      .put(`/v1/groups/${groupId}/rates`)
      .set(ada.auth)
      .send({ base: 'EUR', rates: { USD: '1.25' }, asOf: '2026-11-25' })
      .expect(200);
    const covered = await converted(groupId, 'EUR').expect(200);
    expect(netsOf(covered.body.converted)).toEqual({ [ada.id]: 4000, [bob.id]: -4000 });
  });
});

describe('converted balances while the ECB sends far too much', () => {
  let ecb: EcbServer;
  let t: TestServer;

  beforeAll(async () => {
    ecb = await startEcbServer();
    t = await startTestServer({ env: { FX_PROVIDER: 'ecb', FX_ECB_URL: ecb.url } });
  });
  afterAll(async () => {
    await t?.stop();
    await ecb?.close();
  });

  it('answers 503, not 500 and not rates read from a 64 MiB answer: the fetch stops past 1 MiB', async () => {
    // A valid document (the real one, padded inside its envelope), streamed without a length.
    ecb.serve({ huge: 64 * 1024 * 1024, chunked: true });
    const ada = await t.register('Ada');
    const bob = await t.register('Bob');
    const groupId = await t.createGroup(ada, [bob]);
    await spend(t, ada, groupId, 10000, 'USD', [ada, bob]);
    const res = await t.request.get(`/v1/groups/${groupId}/balances?in=EUR`).set(ada.auth);
    expect([res.status, res.body.code, res.headers['retry-after']]).toEqual([503, 'unavailable', '10']);
    expect(ecb.requests()).toBe(1);
    expect(ecb.bytesSent()).toBeLessThan(16 * 1024 * 1024);
  });
});
