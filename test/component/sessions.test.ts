import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { TestSocket } from '../gateway/ws-client';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { expectProblem, RFC3339_UTC } from './component-helpers';

const PASSWORD = 'correct horse battery';

/** Sessions and signing out (API.md §2), on one all-in-one process (API and gateway, in-process bus). */
describe('sessions (API.md §2)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  type Device = { accessToken: string; refreshToken: string; auth: Record<string, string> };
  const asDevice = (body: { accessToken: string; refreshToken: string }): Device => ({
    accessToken: body.accessToken,
    refreshToken: body.refreshToken,
    auth: { Authorization: `Bearer ${body.accessToken}` },
  });
  const login = async (user: TestUser, userAgent: string): Promise<Device> => {
    const res = await t.request
      .post('/v1/auth/login')
      .set('User-Agent', userAgent)
      .send({ email: user.email, password: PASSWORD });
    expect(res.status).toBe(200);
    return asDevice(res.body);
  };
  const refresh = (refreshToken: string) => t.request.post('/v1/auth/refresh').send({ refreshToken });
  const sessionsOf = async (device: Device) => {
    const res = await t.request.get('/v1/me/sessions').set(device.auth);
    expect(res.status).toBe(200);
    return res.body.data as {
      id: string;
      userAgent: string | null;
      ip: string | null;
      createdAt: string;
      lastUsedAt: string;
      current: boolean;
    }[];
  };
  const sidOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sid as string;

  it('lists each sign-in with its device, the most recently used first, marking the current one', async () => {
    const user = await t.register('Lister');
    const phone = await login(user, 'TallyPhone/1.0');
    const laptop = await login(user, `Laptop ${'x'.repeat(400)}`);
    // The phone refreshes: it becomes the most recently used.
    const rotated = await refresh(phone.refreshToken);
    expect(rotated.status).toBe(200);
    expect(sidOf(rotated.body.accessToken)).toBe(sidOf(phone.accessToken));

    const list = await sessionsOf(laptop);
    expect(list.map((s) => s.id)).toEqual([
      sidOf(phone.accessToken),
      sidOf(laptop.accessToken),
      sidOf(user.accessToken),
    ]);
    expect(list.map((s) => s.current)).toEqual([false, true, false]);
    const [phoneSession, laptopSession] = list;
    expect(phoneSession?.userAgent).toBe('TallyPhone/1.0');
    expect(laptopSession?.userAgent).toHaveLength(256);
    expect(laptopSession?.userAgent?.startsWith('Laptop xxx')).toBe(true);
    for (const s of list) {
      expect(s.ip).toMatch(/127\.0\.0\.1|::1/);
      expect(s.createdAt).toMatch(RFC3339_UTC);
      expect(s.lastUsedAt).toMatch(RFC3339_UTC);
    }
    expect(Date.parse(phoneSession?.lastUsedAt ?? '')).toBeGreaterThan(
      Date.parse(phoneSession?.createdAt ?? ''),
    );
    // Another user sees none of them.
    const other = await t.register('Other');
    expect((await sessionsOf(other)).map((s) => s.id)).toEqual([sidOf(other.accessToken)]);
  });

  it('keeps an IP address as the session’s ip, never other text, an IPv4-mapped one as IPv4', async () => {
    const user = await t.register('Addresses');
    const signIn = async (forwarded: string) => {
      const res = await t.request
        .post('/v1/auth/login')
        .set('X-Forwarded-For', forwarded)
        .send({ email: user.email, password: PASSWORD });
      expect(res.status).toBe(200);
      return sidOf(res.body.accessToken);
    };
    // From the (trusted, loopback) peer: its entry is the client, when it is an address.
    const mapped = await signIn('::FFFF:203.0.113.5');
    const v6 = await signIn('2001:DB8:0:0:0:0:0:7');
    const text = await signIn('<script>alert(1)</script>');
    const ipOf = new Map((await sessionsOf(user)).map((s) => [s.id, s.ip]));
    expect(ipOf.get(mapped)).toBe('203.0.113.5');
    expect(ipOf.get(v6)).toBe('2001:db8::7');
    // Not an address: the proxy that passed it on (here the loopback peer) is what is known.
    expect(ipOf.get(text)).toBe('127.0.0.1');
    expect(ipOf.get(sidOf(user.accessToken))).toBe('127.0.0.1');
  });

  it('keeps the User-Agent as the device sent it (UTF-8), without controls, at most 256 code points', async () => {
    const user = await t.register('Agents');
    // The header as UTF-8 bytes: fetch writes each character of a header string as one byte.
    const login = async (userAgent: string): Promise<Device> => {
      const res = await fetch(`${t.url}/v1/auth/login`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': Buffer.from(userAgent, 'utf8').toString('latin1'),
        },
        body: JSON.stringify({ email: user.email, password: PASSWORD }),
      });
      expect(res.status).toBe(200);
      return asDevice((await res.json()) as Device);
    };
    const zoe = await login('Tally/2.0 (Zoë’s iPhone; 東京)');
    const long = await login(`${'😀'.repeat(300)}`);
    // (HTTP carries no other control than a tab: C1 controls come as UTF-8, as do bidi overrides.)
    const controls = await login('Evil\t\u0085x\u202Etxt.exe');
    const agentOf = new Map((await sessionsOf(zoe)).map((s) => [s.id, s.userAgent]));
    expect(agentOf.get(sidOf(zoe.accessToken))).toBe('Tally/2.0 (Zoë’s iPhone; 東京)');
    expect(agentOf.get(sidOf(long.accessToken))).toBe('😀'.repeat(256));
    expect(agentOf.get(sidOf(controls.accessToken))).toBe('Evil  xtxt.exe');
  });

  it('signs a device out: its refresh and access tokens and its WebSocket fail, the caller is untouched', async () => {
    const user = await t.register('Revoker');
    const stolen = await login(user, 'Lost phone');
    const stolenSocket = await TestSocket.open(t.url, stolen.accessToken);
    await stolenSocket.next((m) => m.type === 'welcome');
    const mySocket = await TestSocket.open(t.url, user.accessToken);
    await mySocket.next((m) => m.type === 'welcome');
    expect((await t.request.get('/v1/me').set(stolen.auth)).status).toBe(200);

    const res = await t.request.delete(`/v1/me/sessions/${sidOf(stolen.accessToken)}`).set(user.auth);
    expect(res.status).toBe(204);

    expect(await stolenSocket.closeCode()).toBe(4401);
    expect(stolenSocket.closedWith?.reason).toBe('session revoked');
    expectProblem(await t.request.get('/v1/me').set(stolen.auth), 401, 'unauthenticated');
    expectProblem(await refresh(stolen.refreshToken), 401, 'unauthenticated');
    await expect(TestSocket.open(t.url, stolen.accessToken)).rejects.toThrow(/401/);

    // The caller's session goes on: its token, refresh and socket.
    expect((await t.request.get('/v1/me').set(user.auth)).status).toBe(200);
    expect(mySocket.closedWith).toBeUndefined();
    mySocket.send({ type: 'ping', id: 'p1' });
    expect(await mySocket.next((m) => m.type === 'pong')).toMatchObject({ id: 'p1' });
    mySocket.close();
    expect((await refresh(user.refreshToken)).status).toBe(200);
    expect((await sessionsOf(user)).map((s) => s.id)).toEqual([sidOf(user.accessToken)]);

    // Already ended: 204 again.
    expect(
      (await t.request.delete(`/v1/me/sessions/${sidOf(stolen.accessToken)}`).set(user.auth)).status,
    ).toBe(204);
  });

  it('moves a socket to the session of the token of its last `auth` message, and refuses a signed-out one there', async () => {
    const user = await t.register('Mover');
    const second = await login(user, 'Second');
    const third = await login(user, 'Third');
    const socket = await TestSocket.open(t.url, user.accessToken);
    await socket.next((m) => m.type === 'welcome');
    socket.send({ type: 'auth', id: 'a1', accessToken: second.accessToken });
    expect(await socket.next((m) => m.id === 'a1')).toMatchObject({ type: 'authenticated' });

    // The session it was opened with ends: it no longer belongs to it and stays open.
    expect(
      (await t.request.delete(`/v1/me/sessions/${sidOf(user.accessToken)}`).set(third.auth)).status,
    ).toBe(204);
    socket.send({ type: 'ping', id: 'p1' });
    expect(await socket.next((m) => m.id === 'p1')).toMatchObject({ type: 'pong' });
    // A token of that ended session is refused by `auth`.
    socket.send({ type: 'auth', id: 'a2', accessToken: user.accessToken });
    expect(await socket.next((m) => m.id === 'a2')).toMatchObject({ type: 'error', code: 'unauthenticated' });

    // Its session now: ending it closes the socket.
    expect(
      (await t.request.delete(`/v1/me/sessions/${sidOf(second.accessToken)}`).set(third.auth)).status,
    ).toBe(204);
    expect(await socket.closeCode()).toBe(4401);
  });

  it("answers 404 not_found for another user's session or an unknown one, and leaves it alone", async () => {
    const ada = await t.register('Ada');
    const bob = await t.register('Bob');
    expectProblem(
      await t.request.delete(`/v1/me/sessions/${sidOf(bob.accessToken)}`).set(ada.auth),
      404,
      'not_found',
    );
    expectProblem(await t.request.delete('/v1/me/sessions/rtk_nope').set(ada.auth), 404, 'not_found');
    expect((await t.request.get('/v1/me').set(bob.auth)).status).toBe(200);
    expect((await refresh(bob.refreshToken)).status).toBe(200);
  });

  it('needs a bearer token to sign out', async () => {
    expectProblem(await t.request.post('/v1/auth/logout'), 401, 'unauthenticated');
    expectProblem(await t.request.post('/v1/auth/logout-all'), 401, 'unauthenticated');
    expectProblem(await t.request.get('/v1/me/sessions'), 401, 'unauthenticated');
  });

  it('logout ends this session only', async () => {
    const user = await t.register('Leaver');
    const other = await login(user, 'Tablet');
    expect((await t.request.post('/v1/auth/logout').set(user.auth)).status).toBe(204);
    expectProblem(await t.request.get('/v1/me').set(user.auth), 401, 'unauthenticated');
    expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
    expect((await t.request.get('/v1/me').set(other.auth)).status).toBe(200);
    expect((await sessionsOf(other)).map((s) => s.id)).toEqual([sidOf(other.accessToken)]);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it('logout-all ends every session, this one included; signing in again works', async () => {
    const user = await t.register('Everywhere');
    const tablet = await login(user, 'Tablet');
    const tabletSocket = await TestSocket.open(t.url, tablet.accessToken);
    await tabletSocket.next((m) => m.type === 'welcome');
    expect((await t.request.post('/v1/auth/logout-all').set(user.auth)).status).toBe(204);
    expect(await tabletSocket.closeCode()).toBe(4401);
    for (const device of [user, tablet]) {
      expectProblem(await t.request.get('/v1/me').set(device.auth), 401, 'unauthenticated');
      expectProblem(await refresh(device.refreshToken), 401, 'unauthenticated');
    }
    const again = await login(user, 'Tablet');
    expect((await sessionsOf(again)).map((s) => s.id)).toEqual([sidOf(again.accessToken)]);
  });

  it('gives a family signed in without a session row (an older process) one at its refresh; logout-all ends it', async () => {
    const user = await t.register('Legacy');
    const legacy = await login(user, 'Old app');
    const legacySid = sidOf(legacy.accessToken);
    expect(await t.server.knex('sessions').where({ id: legacySid }).delete()).toBe(1);
    expect((await sessionsOf(user)).map((s) => s.id)).toEqual([sidOf(user.accessToken)]);

    const rotated = await refresh(legacy.refreshToken);
    expect(rotated.status).toBe(200);
    const listed = await sessionsOf(user);
    expect(listed.map((s) => [s.id, s.userAgent])).toEqual([
      [legacySid, null],
      [sidOf(user.accessToken), null],
    ]);

    // Without its row again: sign out everywhere still kills its refresh token.
    await t.server.knex('sessions').where({ id: legacySid }).delete();
    expect((await t.request.post('/v1/auth/logout-all').set(user.auth)).status).toBe(204);
    expectProblem(await refresh(rotated.body.refreshToken), 401, 'unauthenticated');
  });

  it('reuse detection ends the session: it leaves the list', async () => {
    const user = await t.register('Reused');
    const other = await login(user, 'Other');
    const rotated = await refresh(user.refreshToken);
    expect(rotated.status).toBe(200);
    // Past the grace window: presenting the used token again is reuse.
    await t.server
      .knex('refresh_tokens')
      .where({ token_hash: createHash('sha256').update(user.refreshToken).digest('hex') })
      .update({ used_at: t.server.knex.raw(`used_at - interval '11 seconds'`) });
    expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
    expect((await sessionsOf(other)).map((s) => s.id)).toEqual([sidOf(other.accessToken)]);
    expectProblem(
      await t.request.get('/v1/me').set({ Authorization: `Bearer ${rotated.body.accessToken}` }),
      401,
      'unauthenticated',
    );
  });
});

/** A server process without DATABASE_URL (PGlite in jest needs --experimental-vm-modules; see embedded-smoke). */
describe('sessions on the embedded database (PGlite)', () => {
  let proc: ServerProcess;
  let dataDir: string;
  let t: { request: ReturnType<typeof request.agent>; register(name: string): Promise<TestUser> };
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-sessions-'));
    proc = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const agent = request.agent(proc.url);
    t = {
      request: agent,
      async register(name) {
        const res = await agent
          .post('/v1/auth/register')
          .send({ email: uniqueEmail(name), name, password: PASSWORD });
        expect(res.status).toBe(201);
        const { user, accessToken, refreshToken } = res.body;
        return { ...user, accessToken, refreshToken, auth: { Authorization: `Bearer ${accessToken}` } };
      },
    };
  }, 60_000);
  afterAll(async () => {
    await proc?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records, lists and ends sessions', async () => {
    const user = await t.register('Embedded');
    const res = await t.request
      .post('/v1/auth/login')
      .set('User-Agent', 'Embedded phone')
      .send({ email: user.email, password: PASSWORD });
    expect(res.status).toBe(200);
    const phone = { Authorization: `Bearer ${res.body.accessToken}` };
    // Three refreshes at once on the one embedded connection: one successor for all three.
    const refreshed = await Promise.all(
      [1, 2, 3].map(() => t.request.post('/v1/auth/refresh').send({ refreshToken: res.body.refreshToken })),
    );
    expect(refreshed.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(refreshed.map((r) => r.body.refreshToken)).size).toBe(1);
    const list = await t.request.get('/v1/me/sessions').set(user.auth);
    expect(
      list.body.data.map((s: { userAgent: string | null; current: boolean }) => [s.userAgent, s.current]),
    ).toEqual([
      ['Embedded phone', false],
      [null, true],
    ]);
    expect((await t.request.delete(`/v1/me/sessions/${list.body.data[0].id}`).set(user.auth)).status).toBe(
      204,
    );
    expectProblem(await t.request.get('/v1/me').set(phone), 401, 'unauthenticated');
    expect((await t.request.post('/v1/auth/logout').set(user.auth)).status).toBe(204);
    expectProblem(await t.request.get('/v1/me').set(user.auth), 401, 'unauthenticated');
    expectProblem(
      await t.request.post('/v1/auth/refresh').send({ refreshToken: user.refreshToken }),
      401,
      'unauthenticated',
    );
  });
});
