/**
 * The keyed-write load shared by `bench:profile` (profile.ts) and `bench:capacity` (write-capacity.ts):
 * wait for a started Tally, sign a user up with some groups, and drive autocannon's keyed
 * `POST /v1/expenses` spread over those groups.
 */
import autocannon from 'autocannon';
import { waitFor } from './bench-setup';

/** Waits for a started Tally: its `/readyz` answering (ready: it has its database) (every 100 ms, for up to 30 s). */
export const waitUntilHealthy = (api: string): Promise<void> => waitFor(`${api}/readyz`);

export type BenchUser = { userId: string; auth: Record<string, string>; groups: string[] };

/** A new user (`label` names its email and password) with `groupCount` groups of their own. */
export async function signUpWithGroups(api: string, label: string, groupCount: number): Promise<BenchUser> {
  const register = await fetch(`${api}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `${label}-${Date.now()}@example.com`,
      name: label,
      password: `${label} password`,
    }),
  });
  const session = (await register.json()) as { user: { id: string }; accessToken: string };
  const auth = { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' };
  const groups: string[] = [];
  for (let i = 0; i < groupCount; i++) {
    const res = await fetch(`${api}/v1/groups`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: `g${i}` }),
    });
    groups.push(((await res.json()) as { id: string }).id);
  }
  return { userId: session.user.id, auth, groups };
}

/** Keyed `POST /v1/expenses` by `user`, a new key each, round-robin over the user's groups. */
export function keyedExpenseLoad(
  api: string,
  user: BenchUser,
  options: { keyPrefix: string; connections: number; duration: number },
) {
  let n = 0;
  return autocannon({
    url: `${api}/v1/expenses`,
    connections: options.connections,
    duration: options.duration,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            headers: { ...user.auth, 'idempotency-key': `${options.keyPrefix}-${n}` },
            body: JSON.stringify({
              groupId: user.groups[n % user.groups.length],
              description: 'Dinner',
              amount: 90000,
              paidBy: user.userId,
              split: { type: 'equal', between: [user.userId] },
            }),
          };
        },
      },
    ],
  });
}
