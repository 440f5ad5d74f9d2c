import {
  InvalidCredentialsError,
  MemoryTokenStore,
  type Session,
  TallyClient,
  UnauthenticatedError,
  UnavailableError,
} from '../../packages/client/src';
import { until } from '../support/until';
import { json, problem, type Recorded, ScriptedServer, type Step } from './scripted-server';

const user = {
  id: 'usr_1',
  email: 'ada@example.com',
  name: 'Ada',
  createdAt: '2026-11-25T10:00:00.000Z',
  emailVerified: true,
};
const session = (n: number): Session => ({
  user,
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  expiresIn: 900,
});
const page = { data: [], nextCursor: null };

/**
 * Tokens: the token store hook, one automatic refresh on 401 shared by concurrent requests (single
 * flight), then the original request retried once; a refused refresh ends the session.
 */
describe('auth: token store and single-flight refresh', () => {
  let server: ScriptedServer;
  /** The access token the scripted server accepts right now. */
  let valid: string;
  let refreshes: Recorded[];
  /** What the refresh endpoint answers (after a delay, so concurrent 401s overlap with it). */
  let refreshStep: (req: Recorded) => Step;
  /** `/v1/slow` refuses an old token once this settles. */
  let slowRefusal: Promise<void>;

  const authorized = (req: Recorded) => req.headers.authorization === `Bearer ${valid}`;
  const sentTokens = (path: string) =>
    server.requests.filter((r) => r.path === path).map((r) => r.headers.authorization);
  const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );

  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.reset();
    valid = 'access-2';
    refreshes = [];
    slowRefusal = Promise.resolve();
    refreshStep = (req) => {
      const body = req.body as { refreshToken?: string };
      if (body.refreshToken !== 'refresh-1') return problem(401, 'unauthenticated');
      return { ...json(200, session(2)), delayMs: 50 };
    };
    server.otherwise((req) => {
      if (req.path === '/v1/auth/refresh') {
        refreshes.push(req);
        return refreshStep(req);
      }
      if (req.path === '/v1/auth/login') return json(200, session(1));
      if (req.path.startsWith('/v1/slow') && !authorized(req)) {
        return slowRefusal.then(() => problem(401, 'unauthenticated', { 'WWW-Authenticate': 'Bearer' }));
      }
      if (!authorized(req)) return problem(401, 'unauthenticated', { 'WWW-Authenticate': 'Bearer' });
      if (req.path === '/v1/me') return json(200, user);
      if (req.method === 'POST') return json(201, { id: 'exp_1' });
      return json(200, page);
    });
  });

  const signedIn = (options: { onSessionExpired?: () => void } = {}) => {
    const store = new MemoryTokenStore({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    const tally = new TallyClient({
      baseUrl: server.url,
      tokenStore: store,
      sleep: async () => {},
      ...options,
    });
    return { store, tally };
  };

  it('login and register store the session in the token store; requests then carry the bearer token', async () => {
    valid = 'access-1';
    const store = new MemoryTokenStore();
    const sessions: Session[] = [];
    const tally = new TallyClient({
      baseUrl: server.url,
      tokenStore: store,
      onSession: (s) => sessions.push(s),
    });
    expect(await tally.auth.isSignedIn()).toBe(false);
    const s = await tally.auth.login({ email: 'ada@example.com', password: 'correct horse' });
    expect(s.user).toEqual(user);
    expect(store.get()).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(store.get()?.expiresAt).toEqual(expect.any(Number));
    expect(sessions).toHaveLength(1);
    expect(await tally.auth.me()).toEqual(user);
    expect(sentTokens('/v1/me')).toEqual(['Bearer access-1']);
    // Auth endpoints are sent without a bearer token.
    expect(sentTokens('/v1/auth/login')).toEqual([undefined]);
    await tally.auth.logout();
    expect(store.get()).toBeUndefined();
  });

  it('refreshes once for many concurrent 401s, then retries each request once with the new token', async () => {
    const { store, tally } = signedIn();
    const results = await Promise.all([
      tally.groups.list(),
      tally.groups.list(),
      tally.auth.me(),
      tally.groups.balances('grp_1').catch(() => 'balances'),
      tally.groups.list({ limit: 5 }),
    ]);
    expect(results[0]).toEqual(page);
    expect(results[2]).toEqual(user);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]?.body).toEqual({ refreshToken: 'refresh-1' });
    expect(store.get()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    // Every request went out twice: once with the old token, once with the new one.
    expect(sentTokens('/v1/groups').sort()).toEqual([
      'Bearer access-1',
      'Bearer access-1',
      'Bearer access-2',
      'Bearer access-2',
    ]);
    expect(sentTokens('/v1/me')).toEqual(['Bearer access-1', 'Bearer access-2']);
  });

  it('does not refresh again for a 401 that arrives after another request already refreshed', async () => {
    const { tally } = signedIn();
    // The slow request is refused with the old token only once the fast one has refreshed.
    let refreshed = () => {};
    slowRefusal = new Promise((resolve) => {
      refreshed = resolve;
    });
    const slow = tally.http.request({ method: 'GET', path: '/v1/slow' });
    // The slow request is on the server (with the old token) before the fast one starts.
    await until(() => sentTokens('/v1/slow').length > 0);
    await tally.groups.list();
    expect(refreshes).toHaveLength(1);
    refreshed();
    await slow;
    expect(refreshes).toHaveLength(1);
    expect(sentTokens('/v1/slow')).toEqual(['Bearer access-1', 'Bearer access-2']);
  });

  it('retries a keyed write after the refresh with the same Idempotency-Key', async () => {
    const { tally } = signedIn();
    const expense = await tally.expenses.create({
      groupId: 'grp_1',
      description: 'Dinner',
      amount: 100,
      paidBy: 'usr_1',
      split: { type: 'equal', between: ['usr_1'] },
    });
    expect(expense.id).toBe('exp_1');
    const posts = server.requests.filter((r) => r.path === '/v1/expenses');
    expect(posts.map((r) => r.headers.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
    expect(posts[0]?.headers['idempotency-key']).toBeDefined();
    expect(posts[1]?.headers['idempotency-key']).toBe(posts[0]?.headers['idempotency-key']);
  });

  it('refreshes at most once per request: a 401 after the refresh is thrown', async () => {
    const { tally } = signedIn();
    valid = 'nothing-is-valid';
    const error = await rejection(tally.groups.list());
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(refreshes).toHaveLength(1);
    expect(sentTokens('/v1/groups')).toEqual(['Bearer access-1', 'Bearer access-2']);
  });

  it('ends the session when the refresh token is refused: tokens cleared, onSessionExpired once, 401 thrown', async () => {
    let expired = 0;
    const { store, tally } = signedIn({ onSessionExpired: () => expired++ });
    refreshStep = () => ({ ...problem(401, 'unauthenticated'), delayMs: 50 });
    const errors = await Promise.all([
      rejection(tally.groups.list()),
      rejection(tally.auth.me()),
      rejection(tally.groups.get('grp_1')),
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(refreshes).toHaveLength(1);
    expect(expired).toBe(1);
    expect(store.get()).toBeUndefined();
  });

  it('never retries the refresh itself (a used refresh token is dead): a 503 fails the request, tokens kept', async () => {
    const { store, tally } = signedIn();
    refreshStep = () => problem(503, 'unavailable', { 'Retry-After': '1' });
    const error = await rejection(tally.groups.list());
    expect(error).toBeInstanceOf(UnavailableError);
    expect(refreshes).toHaveLength(1);
    expect(store.get()).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(sentTokens('/v1/auth/refresh')).toEqual([undefined]);
  });

  it('auth.refresh() rotates explicitly, sharing a refresh in flight', async () => {
    const { store, tally } = signedIn();
    const [a, b] = await Promise.all([tally.auth.refresh(), tally.auth.refresh()]);
    expect(a?.accessToken).toBe('access-2');
    expect(b?.accessToken).toBe('access-2');
    expect(refreshes).toHaveLength(1);
    expect(store.get()?.refreshToken).toBe('refresh-2');
  });

  it('does not try to refresh on invalid_credentials at login', async () => {
    const tally = new TallyClient({ baseUrl: server.url });
    server.reply(problem(401, 'invalid_credentials'));
    expect(await rejection(tally.auth.login({ email: 'ada@example.com', password: 'wrong' }))).toBeInstanceOf(
      InvalidCredentialsError,
    );
    expect(refreshes).toHaveLength(0);
  });

  it('works with an asynchronous token store (e.g. secure storage on a device)', async () => {
    const saved: (string | undefined)[] = [];
    let tokens: { accessToken: string; refreshToken: string } | undefined = {
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
    };
    const tally = new TallyClient({
      baseUrl: server.url,
      tokenStore: {
        get: async () => tokens,
        set: async (next) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          tokens = next;
          saved.push(next?.accessToken);
        },
      },
    });
    await Promise.all([tally.groups.list(), tally.groups.list(), tally.groups.list()]);
    expect(refreshes).toHaveLength(1);
    expect(saved).toEqual(['access-2']);
  });
});
