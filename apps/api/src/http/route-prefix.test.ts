import express, { type RequestHandler, Router } from 'express';
import request from 'supertest';
import { enteredByPrefix } from './route-prefix';

/** `router` with a count of the requests that entered it (the guard reads its routes as usual). */
function counted(router: Router) {
  const count = { entered: 0 };
  const handler: RequestHandler = (req, res, next) => {
    count.entered += 1;
    router(req, res, next);
  };
  return { router: Object.assign(handler, { stack: router.stack }) as unknown as Router, count };
}

/** Two routers mounted under /v1 as createApp mounts them, then a 404. */
function appWith(second: Router) {
  const me = Router();
  me.get('/me', (_req, res) => {
    res.json({ by: 'me' });
  });
  me.get('/me/sessions/:id', (req, res) => {
    res.json({ by: 'me', id: req.params['id'] });
  });
  const first = counted(me);
  const v1 = Router();
  v1.use(enteredByPrefix(first.router));
  v1.use(enteredByPrefix(second));
  const app = express();
  app.use('/v1', v1);
  app.use((_req, res) => {
    res.status(404).json({ by: 'nobody' });
  });
  return { app, count: first.count };
}

describe('enteredByPrefix', () => {
  it('answers what the router answers, whatever the letter case of the first segment', async () => {
    const { app, count } = appWith(Router());
    expect((await request(app).get('/v1/me')).body).toEqual({ by: 'me' });
    expect((await request(app).get('/v1/ME')).body).toEqual({ by: 'me' });
    expect((await request(app).get('/v1/Me/sessions/s1')).body).toEqual({ by: 'me', id: 's1' });
    expect(count.entered).toBe(3);
  });

  it('passes a request for another first segment on without entering the router', async () => {
    const second = Router();
    second.get('/groups/:id', (req, res) => {
      res.json({ by: 'second', id: req.params['id'] });
    });
    const { app, count } = appWith(second);
    expect((await request(app).get('/v1/groups/g1')).body).toEqual({ by: 'second', id: 'g1' });
    expect((await request(app).get('/v1/mine')).body).toEqual({ by: 'nobody' });
    expect(count.entered).toBe(0);
  });

  it('always enters a router that has a layer for any path', async () => {
    const second = Router();
    second.use((req, res, next) => {
      if (req.path === '/anything') res.json({ by: 'second' });
      else next();
    });
    const { app } = appWith(second);
    expect((await request(app).get('/v1/anything')).body).toEqual({ by: 'second' });
    expect((await request(app).get('/v1/me')).body).toEqual({ by: 'me' });
  });
});
