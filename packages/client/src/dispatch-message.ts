import type { ServerMessage } from './types.js';

/** One handler per server message type; a type without one is ignored (a newer server may add some). */
export type MessageHandlers = {
  [T in ServerMessage['type']]?: (message: Extract<ServerMessage, { type: T }>) => void;
};

function textOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  // A Buffer (how `ws` hands over a binary frame) reads as its text.
  if (data !== null && typeof data === 'object' && 'toString' in data) return String(data);
  return undefined;
}

/**
 * Parses a frame of the server and hands it to the handler of its type.
 * @param onMalformed called with the parse error when the frame is not JSON
 */
export function dispatchMessage(
  data: unknown,
  handlers: MessageHandlers,
  onMalformed: (cause: unknown) => void,
): void {
  let message: ServerMessage;
  try {
    message = JSON.parse(textOf(data) ?? '') as ServerMessage;
  } catch (cause) {
    onMalformed(cause);
    return;
  }
  const type = message?.type;
  // Own handlers only: a `type` such as "constructor" must not reach Object.prototype.
  if (typeof type !== 'string' || !Object.hasOwn(handlers, type)) return;
  (handlers[type] as (m: ServerMessage) => void)(message);
}
