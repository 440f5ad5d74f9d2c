import net from 'node:net';

/**
 * A TCP forwarder that can take the network away: `offline()` resets every open connection and every
 * new one (the client sees a network error, the server never sees the request); `online()` forwards
 * again. The port stays the same, as a phone's server address does when it loses signal.
 */
export class SwitchableProxy {
  private up = true;
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<SwitchableProxy> {
    const { hostname, port } = new URL(target);
    let proxy: SwitchableProxy | undefined;
    const server = net.createServer((client) => {
      const self = proxy as SwitchableProxy;
      client.on('error', () => {});
      if (!self.up) {
        client.resetAndDestroy();
        return;
      }
      const upstream = net.connect(Number(port), hostname);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      for (const socket of [client, upstream]) {
        self.sockets.add(socket);
        socket.on('close', () => self.sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port: own } = server.address() as net.AddressInfo;
    proxy = new SwitchableProxy(server, `http://127.0.0.1:${own}`);
    return proxy;
  }

  offline(): void {
    this.up = false;
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
  }

  online(): void {
    this.up = true;
  }

  async close(): Promise<void> {
    this.offline();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
