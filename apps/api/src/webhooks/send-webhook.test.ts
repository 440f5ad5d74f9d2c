import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { retryAfterMs, sendWebhook } from './send-webhook';
import { newSecret, signatureOf } from './signing';

/** A real local server answering with `handler`, counting the requests that reached it. */
async function serve(handler: http.RequestListener) {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const options = { allowPrivate: true, timeoutMs: 2000, maxResponseBytes: 1024 };

describe('sendWebhook', () => {
  it('refuses a loopback address, by literal or by name, before connecting', async () => {
    const target = await serve((_req, res) => res.end());
    try {
      for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
        const result = await sendWebhook(`http://${host}:${target.port}/`, {}, '{}', {
          ...options,
          allowPrivate: false,
        });
        expect(result.ok).toBe(false);
        expect(result.error).toMatch(/^refused: .* a loopback address$/);
      }
      expect(target.hits()).toBe(0);
      // Allowed: the same request goes through.
      expect((await sendWebhook(`http://localhost:${target.port}/`, {}, '{}', options)).ok).toBe(true);
      expect(target.hits()).toBe(1);
    } finally {
      await target.close();
    }
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const elsewhere = await serve((_req, res) => res.end());
    const target = await serve((_req, res) => {
      res.writeHead(307, { Location: `http://127.0.0.1:${elsewhere.port}/` });
      res.end();
    });
    try {
      const result = await sendWebhook(`http://127.0.0.1:${target.port}/`, {}, '{}', options);
      expect(result).toMatchObject({ ok: false, status: 307, error: 'redirect (307) not followed' });
      expect(elsewhere.hits()).toBe(0);
    } finally {
      await target.close();
      await elsewhere.close();
    }
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const target = await serve(() => {});
    try {
      const result = await sendWebhook(`http://127.0.0.1:${target.port}/`, {}, '{}', {
        ...options,
        timeoutMs: 200,
      });
      expect(result).toMatchObject({ ok: false, error: 'no answer within 200 ms' });
    } finally {
      await target.close();
    }
  });

  it('reads no more of an answer than its cap, and takes the status', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(10 * 1024 * 1024, 'x'));
    });
    try {
      const result = await sendWebhook(`http://127.0.0.1:${target.port}/`, {}, '{}', options);
      expect(result).toMatchObject({ ok: true, status: 200 });
    } finally {
      await target.close();
    }
  });

  it('passes on Retry-After of a 429 or 503', async () => {
    const target = await serve((_req, res) => {
      res.writeHead(429, { 'Retry-After': '7' });
      res.end();
    });
    try {
      const result = await sendWebhook(`http://127.0.0.1:${target.port}/`, {}, '{}', options);
      expect(result).toMatchObject({ ok: false, status: 429, retryAfterMs: 7000 });
    } finally {
      await target.close();
    }
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('signatureOf', () => {
  it('signs as the standardwebhooks reference implementation verifies, with each secret', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const body = JSON.stringify({ type: 'expense.created', data: { seq: 1 } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureOf([current, previous], 'msg_1', timestamp, body),
    };
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
    // The reference's own signature is ours.
    expect(signatureOf([current], 'msg_1', timestamp, body)).toBe(
      new Webhook(current).sign('msg_1', new Date(timestamp * 1000), body),
    );
  });
});
