import { startTestServer, type TestServer } from '../support/test-server';

describe('health and metrics (API.md §9)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('answers /healthz with 200 while the process runs, without authentication', async () => {
    const res = await t.request.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('answers /readyz with 200 when the database answers', async () => {
    const res = await t.request.get('/readyz');
    expect(res.status).toBe(200);
    // The embedded test server has no Redis: only the database is checked.
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'up' } });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('serves /metrics in the Prometheus text format with the HTTP duration histogram by route template', async () => {
    const user = await t.register('Metrics');
    const groupId = await t.createGroup(user);
    expect((await t.request.get(`/v1/groups/${groupId}`).set(user.auth)).status).toBe(200);

    const res = await t.request.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.text).toMatch(/^http_request_duration_seconds_bucket\{.*le="\+Inf".*\} \d+$/m);
    expect(res.text).toMatch(/^http_request_duration_seconds_count\{[^}]*method="POST"[^}]*\} \d+$/m);
    expect(res.text).toContain('route="/v1/groups/:groupId"');
    // Raw ids would explode the label cardinality.
    expect(res.text).not.toContain(groupId);
  });

  it('counts requests that fail too, with their status', async () => {
    expect((await t.request.get('/v1/me')).status).toBe(401);
    const res = await t.request.get('/metrics');
    expect(res.text).toMatch(/^http_request_duration_seconds_count\{[^}]*status="401"[^}]*\} \d+$/m);
  });
});
