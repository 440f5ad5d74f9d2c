import {
  InsufficientScopeError,
  LimitExceededError,
  NotFoundError,
  TallyClient,
  UnauthenticatedError,
} from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** `tally.apiKeys` and a client constructed with `{ apiKey }`, against the real server (API.md §2.6). */
describe('TallyClient: API keys', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  const signedIn = async (name: string) => {
    const tally = quickClient(t.url);
    await tally.auth.register({ email: uniqueEmail(name), name, password: PASSWORD });
    return tally;
  };
  const scriptClient = (apiKey: string) =>
    new TallyClient({ baseUrl: t.url, apiKey, retry: { baseDelayMs: 10, attemptTimeoutMs: 5000 } });

  it('creates a key whose client acts as the user within its scopes, lists it, and revokes it', async () => {
    const ada = await signedIn('Ada');
    const group = await ada.groups.create({ name: 'Flat' });
    const created = await ada.apiKeys.create({ name: 'Nightly report', scopes: ['read'] });
    expect(created.secret).toMatch(/^tally_sk_[0-9A-Za-z]{49}$/);
    expect(created.prefix).toBe(created.secret.slice(0, 15));

    const script = scriptClient(created.secret);
    expect((await script.auth.me()).name).toBe('Ada');
    expect((await script.groups.get(group.id)).name).toBe('Flat');
    expect(await rejection(script.groups.create({ name: 'Nope' }))).toBeInstanceOf(InsufficientScopeError);
    // A key cannot manage keys, even to look at them.
    expect(await rejection(script.apiKeys.list())).toBeInstanceOf(InsufficientScopeError);

    const [listed] = await ada.apiKeys.list();
    expect(listed).toEqual(
      expect.objectContaining({ id: created.id, name: 'Nightly report', scopes: ['read'] }),
    );
    expect(listed).not.toHaveProperty('secret');
    expect(listed?.lastUsedAt).not.toBeNull();

    await ada.apiKeys.revoke(created.id);
    expect(await rejection(script.auth.me())).toBeInstanceOf(UnauthenticatedError);
    // The key client stays as it was: no refresh to try, the key is still what it sends.
    expect(await script.tokens.accessToken()).toBe(created.secret);
    expect(await rejection(ada.apiKeys.revoke(created.id))).toBeInstanceOf(NotFoundError);
  });

  it('a write key makes money writes, keyed and exactly-once like the user’s', async () => {
    const ada = await signedIn('Writer');
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Trip' });
    const { secret } = await ada.apiKeys.create({ name: 'Importer', scopes: ['read', 'write'] });
    const script = scriptClient(secret);
    const body = {
      groupId: group.id,
      description: 'Fuel',
      amount: 5000,
      paidBy: me.id,
      split: { type: 'equal' as const, between: [me.id] },
    };
    const expense = await script.expenses.create(body, { idempotencyKey: 'nightly-fuel-1' });
    // The script run again (the same key): the same expense, not a second one; by the user's own
    // client too, since the key acts as its user (API.md §7).
    expect((await script.expenses.create(body, { idempotencyKey: 'nightly-fuel-1' })).id).toBe(expense.id);
    expect((await ada.expenses.create(body, { idempotencyKey: 'nightly-fuel-1' })).id).toBe(expense.id);
    expect((await ada.expenses.get(expense.id)).description).toBe('Fuel');
  });

  it('reports the bound of keys per account as LimitExceededError', async () => {
    const ada = await signedIn('Many');
    for (let i = 0; i < 25; i++) await ada.apiKeys.create({ name: `k${i}`, scopes: ['read'] });
    const error = await rejection(ada.apiKeys.create({ name: 'one more', scopes: ['read'] }));
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).limit).toEqual({ name: 'apiKeysPerUser', max: 25 });
  });
});
