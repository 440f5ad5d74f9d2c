import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/**
 * The only file that reaches past ws's public API (ws 8.23.0, pinned exactly in
 * `apps/gateway/package.json`; `ws-internals.test.ts` fails loudly when an upgrade changes it).
 *
 * Why: a feed sends one event to thousands of sockets. Writing the event's frame, framed once
 * (`PreparedFrame`), straight to each TCP socket, and corking a socket around a batch of frames,
 * saves ws's per-send framing and one write per frame. ws keeps that socket as `_socket`; what is
 * written there counts in ws's public `bufferedAmount` (it adds the socket's `bufferSize`), which
 * the gateway's pacing reads. Safe only without compression (the gateway turns `perMessageDeflate`
 * off) and while ws itself has nothing half-sent (it writes each frame whole, synchronously).
 */
export type RawSocket = Duplex & { bytesWritten?: number };

/** The TCP socket under a WebSocket, or undefined before it is open or after it is gone. */
export const socketOf = (ws: WebSocket): RawSocket | undefined =>
  (ws as unknown as { _socket?: RawSocket | null })._socket ?? undefined;
