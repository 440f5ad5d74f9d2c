import { Registry } from 'prom-client';
import type { WebSocket } from 'ws';
import { Connection, createConnectionScope, PreparedFrame } from './connection';
import { createGatewayMetrics } from './gateway-metrics';

/** A socket that takes listeners and sends nothing: enough for a connection that is never written to. */
const quietSocket = () => ({ on: () => {}, readyState: 1 }) as unknown as WebSocket;

describe('the connections of two gateways in one process', () => {
  const hooks = { metrics: createGatewayMetrics(new Registry()), onClose: () => {} };

  afterEach(() => {
    jest.useRealTimers();
  });

  it('are numbered apart, and their ids do not collide', () => {
    const a = createConnectionScope();
    const b = createConnectionScope();
    const fromA = [1, 2, 3].map(() => new Connection(quietSocket(), 'usr_1', hooks, a));
    const fromB = [1, 2].map(() => new Connection(quietSocket(), 'usr_1', hooks, b));
    expect(fromA.map((c) => c.serial)).toEqual([1, 2, 3]);
    expect(fromB.map((c) => c.serial)).toEqual([1, 2]);
    const ids = new Set([...fromA, ...fromB].map((c) => c.id));
    expect(ids.size).toBe(5);
  });

  it('have a token-deadline timer per gateway, not one per process nor one per connection', () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const a = createConnectionScope();
    const b = createConnectionScope();
    const now = Date.now();
    const ofA = Array.from({ length: 1000 }, () => new Connection(quietSocket(), 'usr_a', hooks, a));
    const ofB = Array.from({ length: 1000 }, () => new Connection(quietSocket(), 'usr_b', hooks, b));
    const expiredA = ofA.map((conn) => jest.spyOn(conn, 'close').mockImplementation(() => {}));
    const expiredB = ofB.map((conn) => jest.spyOn(conn, 'close').mockImplementation(() => {}));
    ofA.forEach((conn, i) => {
      conn.setExpiry(new Date(now + 1000 * (1 + (i % 300))));
    });
    ofB.forEach((conn, i) => {
      conn.setExpiry(new Date(now + 500 + 1000 * (1 + (i % 300))));
    });
    expect(jest.getTimerCount()).toBe(2);

    // A's first instant: A's connections due then close, and nothing of B's.
    jest.advanceTimersByTime(1000);
    expect(expiredA.filter((spy) => spy.mock.calls.length > 0)).toHaveLength(4);
    expect(expiredB.filter((spy) => spy.mock.calls.length > 0)).toHaveLength(0);
    expect(jest.getTimerCount()).toBe(2);

    // Once a gateway's connections have no deadline left, its timer is gone; the other's stays.
    for (const conn of ofA) conn.finish();
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(500);
    expect(expiredB.filter((spy) => spy.mock.calls.length > 0)).toHaveLength(4);
  });
});

describe('a prepared frame', () => {
  /** What a client's ws decodes from `bytes`: its messages, as text. */
  function decoded(bytes: Buffer): Promise<string[]> {
    const { Receiver } = require('ws') as {
      Receiver: new (options: {
        isServer: boolean;
        maxPayload: number;
      }) => NodeJS.WritableStream & {
        on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
        on(event: 'error', listener: (error: Error) => void): void;
      };
    };
    const receiver = new Receiver({ isServer: false, maxPayload: 0 });
    const messages: string[] = [];
    return new Promise((resolve, reject) => {
      receiver.on('message', (data, isBinary) => {
        if (isBinary) reject(new Error('a binary frame'));
        messages.push(data.toString('utf8'));
      });
      receiver.on('error', reject);
      receiver.write(bytes, () => resolve(messages));
    });
  }

  it.each([0, 5, 125, 126, 200, 65_535, 65_536, 70_000])(
    'of %i bytes is one unmasked text frame that ws decodes to the same text',
    async (length) => {
      const text = 'é'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
      const payload = Buffer.from(text, 'utf8');
      expect(payload.length).toBe(length);
      const { bytes } = new PreparedFrame(payload);
      expect(bytes[0]).toBe(0x81);
      expect((bytes[1] as number) & 0x80).toBe(0);
      expect(await decoded(bytes)).toEqual([text]);
      // Two frames back to back: the header says exactly where the first ends.
      expect(await decoded(Buffer.concat([bytes, bytes]))).toEqual([text, text]);
    },
  );
});
