import WebSocket from 'ws';
import { newKey, uniqueEmail } from '../support/test-server';

export type ProcessUser = { id: string; headers: Record<string, string> };

/** Registers a user against a server process over plain fetch. */
export async function registerUser(baseUrl: string, name: string): Promise<ProcessUser> {
  const res = await fetch(`${baseUrl}/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: uniqueEmail(name), name, password: 'correct horse battery' }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string }; accessToken: string };
  return { id: body.user.id, headers: { Authorization: `Bearer ${body.accessToken}` } };
}

export type Attempt = { status: number; id?: string; replayed: boolean } | { status: 'network-error' };

/** One keyed POST /v1/expenses; a dropped connection is an outcome, not an exception. */
export async function postExpense(
  baseUrl: string,
  user: ProcessUser,
  key: string,
  body: object,
): Promise<Attempt> {
  try {
    const res = await fetch(`${baseUrl}/v1/expenses`, {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json()) as { id?: string };
    return { status: res.status, id: json.id, replayed: res.headers.get('idempotent-replayed') === 'true' };
  } catch {
    return { status: 'network-error' };
  }
}

/** An upgrade's HTTP status (101 when it became a WebSocket), with these request headers. */
export function upgradeStatus(
  url: string,
  path = '/v1/ws',
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${path}`, { headers });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(101);
      ws.close();
    });
    ws.once('error', reject);
  });
}

/** A JSON request by `user` to the server at `baseUrl`, keyed (a fresh key); a non-2xx throws with its body. */
export async function callJson(
  baseUrl: string,
  user: ProcessUser,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...user.headers, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
