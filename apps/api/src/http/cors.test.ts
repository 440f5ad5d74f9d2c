import { createServer } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { CORS_MAX_AGE_SECONDS, type CorsOrigins, corsStep } from './cors';
import { createPipeline } from './pipeline';
import { ok } from './reply';
import type { Route } from './route';

/** The step in a pipeline of its own, in front of a route that says it ran. */
function appWith(origins: CorsOrigins) {
  const pipeline = createPipeline([corsStep(origins)], {
    logger: pino({ level: 'silent' }),
    etagOf: undefined,
    ipOf: () => undefined,
  });
  const thing: Route = {
    operationId: 'thing',
    method: 'GET',
    path: '/v1/thing',
    access: 'open',
    maxBodyBytes: undefined,
    operation: undefined,
    handler: (req) => ok({ reached: req.method }, { ETag: 'W/"1"' }),
  };
  return createServer((req, res) => pipeline.handle(thing, {}, req, res));
}

const APP = 'https://app.example.com';

describe('the CORS step with a list of origins', () => {
  const app = appWith([APP, 'http://localhost:5173']);

  it('answers an allowed origin with its origin and the exposed headers, and says that it varies by Origin', async () => {
    const res = await request(app).get('/v1/thing').set('Origin', APP);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reached: 'GET' });
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-expose-headers']).toBe(
      'Location, ETag, Idempotent-Replayed, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, X-Seq',
    );
    expect(res.headers['vary']).toBe('Origin');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('gives another origin, or none, no CORS header at all, and lets the request through', async () => {
    for (const origin of ['https://evil.example.com', 'https://app.example.com:8443', 'null', undefined]) {
      const req = request(app).post('/v1/thing');
      const res = await (origin === undefined ? req : req.set('Origin', origin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ reached: 'POST' });
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(res.headers['vary']).toBe('Origin');
    }
  });

  it('answers the preflight of an allowed origin itself: 204, methods, request headers, max age', async () => {
    const res = await request(app)
      .options('/v1/thing')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key, if-match');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(res.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, X-Min-Seq, X-Request-Id',
    );
    expect(res.headers['access-control-max-age']).toBe(String(CORS_MAX_AGE_SECONDS));
    expect(res.headers['vary']).toBe('Origin');
  });

  it('passes on a preflight from another origin, and a plain OPTIONS (no request method) from an allowed one', async () => {
    const other = await request(app)
      .options('/v1/thing')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'POST');
    expect(other.body).toEqual({ reached: 'OPTIONS' });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await request(app).options('/v1/thing').set('Origin', APP);
    expect(plain.body).toEqual({ reached: 'OPTIONS' });
    expect(plain.headers['access-control-allow-origin']).toBe(APP);
    expect(plain.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe("the CORS step with '*'", () => {
  const app = appWith('*');

  it('allows every origin with `*` (never credentials) and does not vary by Origin', async () => {
    for (const origin of [APP, 'https://anyone.example.org']) {
      const res = await request(app).get('/v1/thing').set('Origin', origin);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toContain('Idempotent-Replayed');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['vary']).toBeUndefined();
    }
    const preflight = await request(app)
      .options('/v1/thing')
      .set('Origin', APP)
      .set('Access-Control-Request-Method', 'DELETE');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    // `*` in Allow-Headers would not cover Authorization: the list is always spelt out.
    expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
  });

  it('leaves a request without Origin alone', async () => {
    const res = await request(app).get('/v1/thing');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
