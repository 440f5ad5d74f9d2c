import { createHash, randomBytes } from 'node:crypto';
import { createUnsubscribeTokens } from '../../apps/api/src/notifications/unsubscribe-token';
import { responseErrors } from '../support/openapi-validator';
import { TEST_JWT_SECRET, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import {
  answeredByMoneySuite,
  answeredByWebhooksSuite,
  answering,
  expectEveryOperationAnswered,
  startOpenApiServer,
} from './openapi-helpers';

describe('OpenAPI document: answers (accounts, groups, invites, operations)', () => {
  let t: TestServer;
  beforeAll(async () => {
    ({ t } = await startOpenApiServer());
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers every documented operation as documented (status and body against the response schemas)', async () => {
    const { call, expectStatus } = answering(t);

    // auth
    const email = uniqueEmail('Cy');
    const credentials = { email, name: 'Cy', password: 'correct horse battery' };
    const registered = await call('post', '/v1/auth/register', { body: credentials });
    expectStatus(registered, 201);
    const cy: TestUser = {
      ...registered.body.user,
      accessToken: registered.body.accessToken,
      refreshToken: registered.body.refreshToken,
      auth: { Authorization: `Bearer ${registered.body.accessToken}` },
    };
    expectStatus(await call('post', '/v1/auth/register', { body: credentials }), 409);
    expectStatus(await call('post', '/v1/auth/register', { body: { email } }), 422);
    expectStatus(
      await call('post', '/v1/auth/login', { body: { email, password: credentials.password } }),
      200,
    );
    expectStatus(await call('post', '/v1/auth/login', { body: { email, password: 'wrong password' } }), 401);
    expectStatus(await call('post', '/v1/auth/refresh', { body: { refreshToken: cy.refreshToken } }), 200);
    expectStatus(await call('post', '/v1/auth/refresh', { body: { refreshToken: 'rt_garbage' } }), 401);
    const me = await call('get', '/v1/me', { user: cy });
    expectStatus(me, 200);
    expectStatus(
      await call('get', '/v1/me', { user: cy, headers: { 'If-None-Match': String(me.headers['etag']) } }),
      304,
    );
    expectStatus(await call('get', '/v1/me'), 401);

    // password reset and change
    const zed = await t.register('Zed');
    expectStatus(await call('post', '/v1/auth/password-reset', { body: { email: zed.email } }), 202);
    expectStatus(await call('post', '/v1/auth/password-reset', { body: { email: 'x' } }), 422);
    const resetToken = randomBytes(32).toString('base64url');
    await t.server.knex('password_resets').insert({
      token_hash: createHash('sha256').update(resetToken).digest('hex'),
      user_id: zed.id,
      created_at: new Date(),
      expires_at: new Date(Date.now() + 60_000),
    });
    const confirmBody = { token: resetToken, password: 'a new horse battery' };
    expectStatus(await call('post', '/v1/auth/password-reset/confirm', { body: confirmBody }), 204);
    expectStatus(await call('post', '/v1/auth/password-reset/confirm', { body: confirmBody }), 400);
    // The reset ended every session of Zed's, the one of his access token too: he signs in again.
    const signedIn = await call('post', '/v1/auth/login', {
      body: { email: zed.email, password: 'a new horse battery' },
    });
    expectStatus(signedIn, 200);
    const zedAgain: TestUser = {
      ...zed,
      accessToken: signedIn.body.accessToken,
      refreshToken: signedIn.body.refreshToken,
      auth: { Authorization: `Bearer ${signedIn.body.accessToken}` },
    };
    const changeBody = { current: 'a new horse battery', new: 'correct horse battery' };
    expectStatus(await call('post', '/v1/me/password', { user: zedAgain, body: changeBody }), 204);
    expectStatus(await call('post', '/v1/me/password', { user: zedAgain, body: changeBody }), 403);

    // email verification and change (API.md §2.5)
    const verifyToken = randomBytes(32).toString('base64url');
    await t.server.knex('email_verifications').insert({
      token_hash: createHash('sha256').update(verifyToken).digest('hex'),
      user_id: zed.id,
      email: zed.email,
      email_normalized: zed.email,
      // Older than the hour the mails are counted in: it does not use up one of Zed's 3.
      created_at: new Date(Date.now() - 2 * 3600_000),
      expires_at: new Date(Date.now() + 60_000),
    });
    expectStatus(await call('post', '/v1/auth/verify-email', { body: { token: verifyToken } }), 204);
    expectStatus(await call('post', '/v1/auth/verify-email', { body: { token: verifyToken } }), 404);
    const newAddress = { email: uniqueEmail('Zed.New'), password: 'correct horse battery' };
    expectStatus(await call('post', '/v1/me/email', { user: zedAgain, body: newAddress }), 202);
    expectStatus(
      await call('post', '/v1/me/email', { user: zedAgain, body: { ...newAddress, password: 'wrong' } }),
      403,
    );
    expectStatus(
      await call('post', '/v1/me/email', { user: zedAgain, body: { ...newAddress, email: email } }),
      409,
    );
    expectStatus(await call('post', '/v1/me/email/verification', { user: zedAgain }), 202);
    expectStatus(
      await call('post', '/v1/me/email', {
        user: zedAgain,
        body: { email: zed.email, password: 'correct horse battery' },
      }),
      204,
    );
    expectStatus(await call('post', '/v1/me/email/verification', { user: zedAgain }), 204);

    // groups and members
    const bob = await t.register('Bob');
    const dee = await t.register('Dee');
    const created = await call('post', '/v1/groups', {
      user: cy,
      key: true,
      body: { name: 'Trip', currency: 'EUR' },
    });
    expectStatus(created, 201);
    const groupId = created.body.id as string;
    expectStatus(await call('post', '/v1/groups', { user: cy, body: {} }), 422);
    expectStatus(await call('get', '/v1/groups', { user: cy }), 200);
    const group = await call('get', `/v1/groups/${groupId}`, { user: cy });
    expectStatus(group, 200);
    expectStatus(await call('head', `/v1/groups/${groupId}`, { user: cy }), 200);
    expectStatus(
      await call('get', `/v1/groups/${groupId}`, {
        user: cy,
        headers: { 'If-None-Match': String(group.headers['etag']) },
      }),
      304,
    );
    expectStatus(await call('get', '/v1/groups/grp_unknown', { user: cy }), 404);
    expectStatus(await call('get', `/v1/groups/${groupId}`, { user: bob }), 404);
    expectStatus(
      await call('patch', `/v1/groups/${groupId}`, {
        user: cy,
        headers: { 'If-Match': '"v99"' },
        body: { name: 'X' },
      }),
      412,
    );
    expectStatus(
      await call('patch', `/v1/groups/${groupId}`, { user: cy, body: { description: 'Goa' } }),
      200,
    );
    // Archived, the group refuses writes (API.md §3) until unarchived.
    expectStatus(await call('post', `/v1/groups/${groupId}/archive`, { user: cy }), 200);
    expectStatus(
      await call('patch', `/v1/groups/${groupId}`, { user: cy, body: { description: 'Kerala' } }),
      409,
    );
    expectStatus(await call('post', `/v1/groups/${groupId}/unarchive`, { user: cy }), 200);
    for (const user of [bob, dee]) {
      expectStatus(
        await call('post', `/v1/groups/${groupId}/members`, { user: cy, body: { userId: user.id } }),
        201,
      );
    }
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members`, { user: cy, body: { userId: bob.id } }),
      200,
    );
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members`, {
        user: cy,
        body: { email: uniqueEmail('nobody') },
      }),
      404,
    );
    expectStatus(await call('delete', `/v1/groups/${groupId}/members/${dee.id}`, { user: cy }), 204);

    const events = await call('get', `/v1/groups/${groupId}/events?limit=100`, { user: cy });
    expectStatus(events, 200);

    // pending members, invites and claims (API.md §3.1–§3.3)
    const patEmail = uniqueEmail('Pat');
    const pat = await call('post', `/v1/groups/${groupId}/members`, {
      user: cy,
      body: { name: 'Pat', email: patEmail },
    });
    expectStatus(pat, 201);
    const pam = await call('post', `/v1/groups/${groupId}/members`, { user: cy, body: { name: 'Pam' } });
    expectStatus(pam, 201);
    const invite = await call('post', `/v1/groups/${groupId}/invites`, {
      user: cy,
      body: { expiresInDays: 3 },
    });
    expectStatus(invite, 201);
    expectStatus(await call('get', `/v1/groups/${groupId}/invites`, { user: cy }), 200);
    const eve = await t.register('Eve');
    expectStatus(await call('get', `/v1/invites/${invite.body.code}`, { user: eve }), 200);
    expectStatus(
      await call('post', `/v1/invites/${invite.body.code}/accept`, {
        user: eve,
        body: { asMember: pam.body.userId },
      }),
      201,
    );
    expectStatus(await call('post', `/v1/invites/${invite.body.code}/accept`, { user: eve }), 200);
    const fay = await t.register('Fay');
    expectStatus(
      await call('post', `/v1/invites/${invite.body.code}/accept`, {
        user: fay,
        body: { asMember: pam.body.userId },
      }),
      409,
    );
    const patRegistered = await call('post', '/v1/auth/register', {
      body: { email: patEmail, name: 'Pat', password: 'correct horse battery' },
    });
    expectStatus(patRegistered, 201);
    const patAccount: TestUser = {
      ...patRegistered.body.user,
      accessToken: patRegistered.body.accessToken,
      refreshToken: patRegistered.body.refreshToken,
      auth: { Authorization: `Bearer ${patRegistered.body.accessToken}` },
    };
    expectStatus(await call('get', '/v1/me/claimable-members', { user: patAccount }), 200);
    const activity = await call('get', '/v1/me/activity?limit=2', { user: cy });
    expectStatus(activity, 200);
    expectStatus(
      await call('post', '/v1/me/activity/read', { user: cy, body: { upTo: activity.body.data[0].id } }),
      200,
    );
    expectStatus(
      await call('post', '/v1/me/activity/read', { user: cy, body: { upTo: 'evt_unknown' } }),
      404,
    );
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pam.body.userId}/claim`, { user: patAccount }),
      404,
    );
    // Not before Pat's address is verified (API.md §2.5).
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pat.body.userId}/claim`, { user: patAccount }),
      403,
    );
    await t.server.knex('users').where({ id: patAccount.id }).update({ email_verified_at: new Date() });
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pat.body.userId}/claim`, { user: patAccount }),
      201,
    );
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pat.body.userId}/claim`, { user: patAccount }),
      200,
    );
    expectStatus(await call('delete', `/v1/groups/${groupId}/invites/${invite.body.id}`, { user: cy }), 204);
    expectStatus(await call('get', `/v1/invites/${invite.body.code}`, { user: fay }), 404);
    expectStatus(await call('post', `/v1/invites/${invite.body.code}/accept`, { user: fay }), 404);
    expectStatus(await call('get', `/v1/groups/${groupId}`, { user: cy }), 200);
    const memberEvents = await call(
      'get',
      `/v1/groups/${groupId}/events?afterSeq=${events.body.data.at(-1).seq}`,
      {
        user: cy,
      },
    );
    expectStatus(memberEvents, 200);
    expect([...new Set((memberEvents.body.data as { type: string }[]).map((e) => e.type))].sort()).toEqual([
      'invite.created',
      'invite.revoked',
      'member.added',
      'member.claimed',
    ]);

    // exports and account deletion (API.md §11)
    expectStatus(await call('get', `/v1/groups/${groupId}/export.csv`, { user: cy }), 200);
    expectStatus(await call('get', '/v1/me/export', { user: cy }), 200);
    expectStatus(await call('delete', '/v1/me', { user: await t.register('Leaver') }), 204);

    // sessions and signing out (API.md §2)
    const traveller = await t.register('Traveller');
    const sessions = await call('get', '/v1/me/sessions', { user: traveller });
    expectStatus(sessions, 200);
    expectStatus(
      await call('delete', `/v1/me/sessions/${sessions.body.data[0].id}`, { user: traveller }),
      204,
    );
    expectStatus(await call('post', '/v1/auth/logout', { user: await t.register('Out') }), 204);
    expectStatus(await call('post', '/v1/auth/logout-all', { user: await t.register('AllOut') }), 204);

    // API keys (API.md §2.6)
    const scripter = await t.register('Scripter');
    const key = await call('post', '/v1/me/api-keys', {
      user: scripter,
      body: { name: 'cron', scopes: ['read'] },
    });
    expectStatus(key, 201);
    expectStatus(await call('get', '/v1/me/api-keys', { user: scripter }), 200);
    // A key may not manage keys: the documented 403.
    const withKey = { Authorization: `Bearer ${key.body.secret}` };
    expectStatus(await call('get', '/v1/me/api-keys', { headers: withKey }), 403);
    expectStatus(await call('delete', `/v1/me/api-keys/${key.body.id}`, { user: scripter }), 204);
    // notifications (API.md §13)
    const settingsUrl = '/v1/me/notification-settings';
    expectStatus(await call('get', settingsUrl, { user: bob }), 200);
    expectStatus(await call('put', settingsUrl, { user: bob, body: { expense: { email: true } } }), 200);
    expectStatus(await call('put', settingsUrl, { user: bob, body: { expense: { email: 'yes' } } }), 422);
    expectStatus(await call('get', '/v1/push/vapid-public-key', { user: bob }), 200);
    const browser = {
      endpoint: 'https://push.example.com/send/openapi',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    };
    const subscribed = await call('post', '/v1/me/push-subscriptions', { user: bob, body: browser });
    expectStatus(subscribed, 201);
    expectStatus(await call('post', '/v1/me/push-subscriptions', { user: bob, body: browser }), 200);
    expectStatus(await call('get', '/v1/me/push-subscriptions', { user: bob }), 200);
    const subscriptionUrl = `/v1/me/push-subscriptions/${subscribed.body.id}`;
    expectStatus(await call('delete', subscriptionUrl, { user: bob }), 204);
    expectStatus(await call('delete', subscriptionUrl, { user: bob }), 404);
    const owed = await t.request
      .post('/v1/expenses')
      .set(cy.auth)
      .set('Idempotency-Key', `owed-${groupId}`)
      .send({
        groupId,
        description: 'Owed',
        amount: 1000,
        paidBy: cy.id,
        split: { type: 'equal', between: [cy.id, bob.id] },
      });
    expect(owed.status).toBe(201);
    const remindersUrl = `/v1/groups/${groupId}/reminders`;
    expectStatus(await call('post', remindersUrl, { user: cy, key: true, body: { toUserId: bob.id } }), 201);
    expectStatus(await call('post', remindersUrl, { user: cy, body: { toUserId: bob.id } }), 429);
    expectStatus(await call('post', remindersUrl, { user: bob, body: { toUserId: cy.id } }), 422);
    const unsubscribeToken = createUnsubscribeTokens(TEST_JWT_SECRET).make(bob.id, 'expense');
    expectStatus(await call('post', `/v1/auth/unsubscribe?token=${unsubscribeToken}`), 204);
    expectStatus(await call('post', '/v1/auth/unsubscribe?token=x.y'), 422);

    // operations
    expectStatus(await call('get', '/healthz'), 200);
    expectStatus(await call('get', '/readyz'), 200);
    expectStatus(await call('get', '/metrics'), 200);
    expectStatus(await call('get', '/v1/openapi.json'), 200);
    expectStatus(await call('get', '/docs'), 200);

    // the check is not vacuous: the same answers, altered, are refused
    const { version: _version, ...unversioned } = group.body as Record<string, unknown>;
    const altered = [
      { ...group, body: unversioned },
      { ...group, body: { ...group.body, members: [{ userId: cy.id }] } },
      { ...group, status: 201 },
      { ...group, headers: { ...group.headers, 'content-type': 'text/html' } },
    ];
    for (const res of altered) {
      expect(responseErrors('GET', `/v1/groups/${groupId}`, res)).not.toEqual([]);
    }
    const problem = await t.request.get('/v1/groups/grp_unknown').set(cy.auth);
    expect(
      responseErrors('GET', '/v1/groups/{groupId}', {
        ...problem,
        body: { ...problem.body, code: 'email_taken' },
      }),
    ).not.toEqual([]);

    // every HTTP operation of the document but the money and webhook ones answered with a success that was validated
    expectEveryOperationAnswered((d) => !answeredByMoneySuite(d) && !answeredByWebhooksSuite(d));
  });
});
