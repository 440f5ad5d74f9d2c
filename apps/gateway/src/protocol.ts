/** Client → server messages of API.md §8, as parsed and checked by `parseClientMessage`. */
export type ClientMessage =
  | { type: 'subscribe'; id?: string; groupId: string; afterSeq?: number }
  | { type: 'unsubscribe'; id?: string; groupId: string }
  | { type: 'ping'; id?: string }
  | { type: 'auth'; id?: string; accessToken: string }
  | { type: 'activity.subscribe'; id?: string }
  | { type: 'activity.unsubscribe'; id?: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalId = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= 128);
const isGroupId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 100;
const isToken = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 8192;

/** Returns the message, or undefined for anything the protocol does not know (`bad_message`). */
export function parseClientMessage(text: string): ClientMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !optionalId(value['id'])) return undefined;
  const id = value['id'] as string | undefined;
  switch (value['type']) {
    case 'subscribe': {
      const afterSeq = value['afterSeq'];
      if (!isGroupId(value['groupId'])) return undefined;
      if (afterSeq !== undefined && !(Number.isSafeInteger(afterSeq) && (afterSeq as number) >= 0))
        return undefined;
      return { type: 'subscribe', id, groupId: value['groupId'], afterSeq: afterSeq as number | undefined };
    }
    case 'unsubscribe':
      return isGroupId(value['groupId']) ? { type: 'unsubscribe', id, groupId: value['groupId'] } : undefined;
    case 'ping':
      return { type: 'ping', id };
    case 'auth':
      return isToken(value['accessToken'])
        ? { type: 'auth', id, accessToken: value['accessToken'] }
        : undefined;
    case 'activity.subscribe':
      return { type: 'activity.subscribe', id };
    case 'activity.unsubscribe':
      return { type: 'activity.unsubscribe', id };
    default:
      return undefined;
  }
}
