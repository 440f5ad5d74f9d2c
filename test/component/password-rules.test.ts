/**
 * The rules of a password being chosen (API.md §2): 8–128 characters counted in code points, no
 * composition rules, not on the list of common passwords from leaks; login still takes any
 * password up to 1024 characters (chosen before these rules).
 */
import { isCommonPassword } from '../../apps/api/src/auth/password-rules';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { expectValidationFailed } from './component-helpers';

describe('password rules', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const register = (password: string) =>
    t.request.post('/v1/auth/register').send({ email: uniqueEmail('Pw'), name: 'Pw', password });
  const messageOf = (body: { errors: { path: string; message: string }[] }) =>
    body.errors.find((e) => e.path === 'password')?.message;

  it('refuses fewer than 8 and more than 128 characters, counted in code points', async () => {
    const short = await register('tq8#Lm2');
    expectValidationFailed(short, 'password');
    expect(messageOf(short.body)).toBe('must be at least 8 characters');
    const long = await register(`${'a9'.repeat(64)}z`);
    expectValidationFailed(long, 'password');
    expect(messageOf(long.body)).toBe('must be at most 128 characters');
    expect((await register('b7'.repeat(64))).status).toBe(201);
    // 128 emoji are 256 UTF-16 units but 128 characters: accepted; 4 emoji (8 units) are too short.
    expect((await register('🔑'.repeat(128))).status).toBe(201);
    expectValidationFailed(await register('🔑'.repeat(4)), 'password');
    expectValidationFailed(await register('🔑'.repeat(129)), 'password');
  });

  it('refuses a common password from leaks, whatever its case, naming the field', async () => {
    for (const password of ['password1', 'PASSWORD1', 'qwertyuiop', '12345678', 'iloveyou']) {
      expect({ password, common: isCommonPassword(password) }).toEqual({ password, common: true });
      const res = await register(password);
      expectValidationFailed(res, 'password');
      expect(messageOf(res.body)).toMatch(/too common.*leaked passwords/);
    }
  });

  it('accepts a long passphrase, with no composition rules', async () => {
    for (const password of ['correct horse battery', 'a quiet walk along the river at dusk', 'tq8#Lm2v']) {
      expect(isCommonPassword(password)).toBe(false);
      expect((await register(password)).status).toBe(201);
    }
  });

  it('still signs in with a password chosen before the rules (up to 1024 characters)', async () => {
    const ada = await register('b7'.repeat(64));
    expect(ada.status).toBe(201);
    // An account whose password was chosen under the old rules (9–1024 characters): set as it was stored.
    const { hashPassword } = await import('../../apps/api/src/auth/passwords');
    const old = 'x'.repeat(1000);
    await t
      .db!.knex('users')
      .where({ id: ada.body.user.id })
      .update({ password_hash: await hashPassword(old) });
    const res = await t.request.post('/v1/auth/login').send({ email: ada.body.user.email, password: old });
    expect(res.status).toBe(200);
  });
});
