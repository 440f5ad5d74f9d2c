/**
 * The bare WebSocket baseline of `npm run bench`: `ws` plus Redis pub/sub fan-out and nothing
 * else — no auth, no log, no ordering or gap repair, no presence. Clients send
 * `{"subscribe":"<group>"}`; every message published on `bare:<group>` goes to that group's sockets.
 */
import http from 'node:http';
import { Redis } from 'ioredis';
import { type WebSocket, WebSocketServer } from 'ws';

const subscriber = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const groups = new Map<string, Set<WebSocket>>();
const server = http.createServer((_req, res) => {
  res.end('ok');
});
const wss = new WebSocketServer({ server, perMessageDeflate: false, clientTracking: false });

wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    const { subscribe } = JSON.parse(data.toString()) as { subscribe: string };
    let set = groups.get(subscribe);
    if (!set) {
      set = new Set();
      groups.set(subscribe, set);
      void subscriber.subscribe(`bare:${subscribe}`);
    }
    set.add(ws);
    ws.send('{"type":"subscribed"}');
    ws.on('close', () => set?.delete(ws));
  });
});
subscriber.on('message', (channel: string, message: string) => {
  for (const ws of groups.get(channel.slice(5)) ?? []) ws.send(message);
});
server.listen(Number(process.env.PORT), () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => process.exit(0));
