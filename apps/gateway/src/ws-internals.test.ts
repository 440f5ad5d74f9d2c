import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { PreparedFrame } from './connection';
import { socketOf } from './ws-internals';

/**
 * `ws-internals.ts` reaches into ws's `_socket`. These run ws's own server and client and fail
 * loudly when a ws upgrade changes what the gateway relies on: read the adapter again before
 * changing the pin.
 */
describe('ws internals adapter', () => {
  let wss: WebSocketServer;
  let server: WebSocket;
  let client: WebSocket;
  let upgraded: unknown;

  beforeEach(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const connected = new Promise<WebSocket>((resolve) =>
      wss.once('connection', (ws, req) => {
        upgraded = req.socket;
        resolve(ws);
      }),
    );
    client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    await new Promise<void>((resolve, reject) => {
      client.once('open', () => resolve());
      client.once('error', reject);
    });
    server = await connected;
  });

  afterEach(async () => {
    client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  it('runs on the ws version it was written for (pinned exactly)', () => {
    const pinned = JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).dependencies.ws;
    const installed = JSON.parse(readFileSync(require.resolve('ws/package.json'), 'utf8')).version;
    expect(pinned).toBe('8.23.0');
    expect(installed).toBe(pinned);
  });

  it("finds the upgraded TCP socket under ws's WebSocket", () => {
    expect(socketOf(server)).toBe(upgraded);
    expect(typeof socketOf(server)?.cork).toBe('function');
    expect(typeof socketOf(server)?.bytesWritten).toBe('number');
  });

  it("counts what is written to the socket in ws's bufferedAmount, and delivers it in order with ws's sends", async () => {
    const received: string[] = [];
    const three = new Promise<void>((resolve) =>
      client.on('message', (data) => {
        received.push(String(data));
        if (received.length === 3) resolve();
      }),
    );
    const socket = socketOf(server);
    if (!socket) throw new Error('no socket under the WebSocket');
    const frame = new PreparedFrame(Buffer.from('{"type":"prepared"}'));
    socket.cork();
    server.send('{"type":"first"}');
    socket.write(frame.bytes);
    expect(server.bufferedAmount).toBeGreaterThanOrEqual(frame.bytes.length);
    server.send('{"type":"last"}');
    socket.uncork();
    await three;
    expect(received).toEqual(['{"type":"first"}', '{"type":"prepared"}', '{"type":"last"}']);
  });
});
