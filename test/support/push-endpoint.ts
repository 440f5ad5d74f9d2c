/**
 * A local push service for tests (RFC 8030's receiving end, no outside service): a plain HTTP server
 * on 127.0.0.1 that takes pushes for "devices" made here as a browser makes them (an ECDH P-256 key
 * pair and a 16-byte auth secret), decrypts each payload with `http_ece` (RFC 8291, aes128gcm) using
 * the device's private key, and keeps what it read. A device can be told to answer 410 (gone) or 500.
 *
 *   const push = await startPushEndpoint();
 *   const device = push.device();        // device.subscription: what PushSubscription.toJSON() gives
 *   const message = await push.waitForPush(device);
 *   await push.stop();
 */
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { until } from './until';

export type ReceivedPush = { headers: IncomingHttpHeaders; payload: Record<string, unknown> };

export type PushDevice = {
  id: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  received: ReceivedPush[];
  /** The status this device's pushes are answered with (201 by default); 0: no answer at all. */
  answer: number;
  /** Pushes that came (any answer), decrypted or not. */
  hits: number;
};

export async function startPushEndpoint() {
  const devices = new Map<string, PushDevice & { ecdh: ReturnType<typeof createECDH>; authSecret: Buffer }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const device = devices.get(String(req.url).replace(/^\/push\//, ''));
      if (!device) {
        res.writeHead(404).end();
        return;
      }
      device.hits++;
      if (device.answer === 0) return; // a push service that never answers
      if (device.answer >= 300) {
        res.writeHead(device.answer).end();
        return;
      }
      const plaintext = ece.decrypt(Buffer.concat(chunks), {
        version: 'aes128gcm',
        privateKey: device.ecdh,
        authSecret: device.authSecret.toString('base64url'),
      });
      device.received.push({ headers: req.headers, payload: JSON.parse(plaintext.toString('utf8')) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let counter = 0;

  return {
    url: `http://127.0.0.1:${port}`,
    /** A new browser: its key pair, auth secret and endpoint on this server. */
    device(): PushDevice {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const id = `d${++counter}-${randomBytes(6).toString('hex')}`;
      const device = {
        id,
        subscription: {
          endpoint: `http://127.0.0.1:${port}/push/${id}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
        },
        received: [],
        answer: 201,
        hits: 0,
        ecdh,
        authSecret,
      };
      devices.set(id, device);
      return device;
    },
    /** The device's `count`-th push (1 = the first), once it came. */
    async waitForPush(device: PushDevice, count = 1): Promise<ReceivedPush> {
      await until(() => device.received.length >= count, `push ${count} to ${device.id}`);
      return device.received[count - 1] as ReceivedPush;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestPushEndpoint = Awaited<ReturnType<typeof startPushEndpoint>>;
