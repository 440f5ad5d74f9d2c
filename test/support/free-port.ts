import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1 now (another process could still take it before the caller binds:
 * callers retry). Imports nothing else, so scripts (infra/) use it without loading the server.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not determine a free port'));
      });
    });
  });
}
