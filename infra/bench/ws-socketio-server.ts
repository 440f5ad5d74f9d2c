/**
 * The Socket.IO baseline of `npm run bench`: what a Node developer would reach for, Socket.IO 4
 * (WebSocket transport only, no per-message deflate) with one room per group and a Redis adapter,
 * and nothing else: no auth, no log, no ordering or gap repair, no presence. Clients emit
 * `subscribe` with the group (acknowledged once joined); the bench broadcasts as a Redis emitter
 * does: one cluster `BROADCAST` message (`ioBroadcast` below) published on `sio#/`, which every
 * server's adapter receives and emits to its local sockets of the group's room as `event`.
 *
 * The adapter is Socket.IO's own cluster adapter (`ClusterAdapterWithHeartbeat` from
 * `socket.io-adapter`, the base `@socket.io/redis-adapter`'s sharded adapter and the streams adapter
 * extend) over Redis pub/sub with ioredis: `@socket.io/redis-adapter` is not among the project's
 * packages, and this is its protocol (one channel per namespace, a response channel per server,
 * heartbeats between servers) with JSON instead of msgpack.
 */
import http from 'node:http';
import { Redis } from 'ioredis';
import { type Namespace, Server } from 'socket.io';
import {
  type Adapter,
  ClusterAdapterWithHeartbeat,
  type ClusterMessage,
  type ClusterResponse,
  MessageType,
  type Offset,
  type ServerId,
} from 'socket.io-adapter';

/** The channel every server of namespace `nsp` listens on. */
export const channelOf = (nsp: string) => `sio#${nsp}#`;

/** What a Redis emitter publishes to emit `event` with `message` to `room` on every server. */
export function ioBroadcast(room: string, message: string): string {
  return JSON.stringify({
    uid: 'emitter',
    nsp: '/',
    type: MessageType.BROADCAST,
    data: {
      packet: { type: 2, data: ['event', message], nsp: '/' },
      opts: { rooms: [room], except: [], flags: {} },
    },
  } satisfies ClusterMessage);
}

class RedisClusterAdapter extends ClusterAdapterWithHeartbeat {
  private readonly channel: string;
  private readonly responseChannel: string;

  constructor(
    nsp: Namespace,
    private readonly publisher: Redis,
    subscriber: Redis,
  ) {
    super(nsp, {});
    this.channel = channelOf(nsp.name);
    this.responseChannel = `${this.channel}${this.uid}#`;
    void subscriber.subscribe(this.channel, this.responseChannel);
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) this.onMessage(JSON.parse(raw) as ClusterMessage);
      else if (channel === this.responseChannel) this.onResponse(JSON.parse(raw) as ClusterResponse);
    });
  }

  protected async doPublish(message: ClusterMessage): Promise<Offset> {
    await this.publisher.publish(this.channel, JSON.stringify(message));
    return '';
  }

  protected async doPublishResponse(requesterUid: ServerId, response: ClusterResponse): Promise<void> {
    await this.publisher.publish(`${this.channel}${requesterUid}#`, JSON.stringify(response));
  }
}

if (require.main === module) {
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const publisher = new Redis(redisUrl);
  const subscriber = new Redis(redisUrl);
  const server = http.createServer((_req, res) => {
    res.end('ok');
  });
  const ioServer = new Server(server, {
    transports: ['websocket'],
    perMessageDeflate: false,
    serveClient: false,
    // socket.io constructs the adapter with `new` and the namespace alone.
    adapter: class extends RedisClusterAdapter {
      constructor(nsp: Namespace) {
        super(nsp, publisher, subscriber);
      }
    } as unknown as typeof Adapter,
  });
  ioServer.on('connection', (socket) => {
    socket.on('subscribe', (group: string, ack: () => void) => {
      void socket.join(group);
      ack();
    });
    // The bench's "everything sent before this has arrived" probe.
    socket.on('flush', (ack: () => void) => ack());
  });
  server.listen(Number(process.env.PORT), () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => process.exit(0));
}
