/**
 * The Socket.IO baseline of `npm run bench`: what a Node developer would reach for, Socket.IO 4
 * (WebSocket transport only, no per-message deflate) with one room per group and Redis pub/sub
 * fan-out, and nothing else: no auth, no log, no ordering or gap repair, no presence. Clients emit
 * `subscribe` with the group (acknowledged once joined); every message published on `sio:<group>`
 * is emitted to that group's room as `event`.
 */
import http from 'node:http';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';

const subscriber = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const subscribed = new Set<string>();
const server = http.createServer((_req, res) => {
  res.end('ok');
});
const ioServer = new Server(server, {
  transports: ['websocket'],
  perMessageDeflate: false,
  serveClient: false,
});

ioServer.on('connection', (socket) => {
  socket.on('subscribe', (group: string, ack: () => void) => {
    void socket.join(group);
    if (!subscribed.has(group)) {
      subscribed.add(group);
      void subscriber.subscribe(`sio:${group}`);
    }
    ack();
  });
  // The bench's "everything sent before this has arrived" probe.
  socket.on('flush', (ack: () => void) => ack());
});
subscriber.on('message', (channel: string, message: string) => {
  ioServer.to(channel.slice(4)).emit('event', message);
});
server.listen(Number(process.env.PORT), () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => process.exit(0));
