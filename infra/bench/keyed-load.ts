/**
 * The keyed-write load shared by `bench:profile` (profile.ts) and `bench:capacity` (write-capacity.ts):
 * wait for a started Tally, sign a user up with some groups, and drive autocannon's keyed
 * `POST /v1/expenses` spread over those groups.
 */
import autocannon from 'autocannon';
import { waitFor } from './bench-setup';

/** Waits for a started Tally: its `/readyz` answering (ready: its database reached) (every 100 ms, for up to 30 s). */
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

/** The body of the bench's keyed expense, into `groupId`: `payer` pays it all and owes it all. */
export const expenseBodyOf =
  (payer: string) =>
  (groupId: string): string =>
    JSON.stringify({
      groupId,
      description: 'Dinner',
      amount: 90000,
      paidBy: payer,
      split: { type: 'equal', between: [payer] },
    });

/**
 * Autocannon's options for keyed `POST /v1/expenses` to `target`: each request counts on `counter`
 * (shared by loads that must never reuse a key), is keyed `<keyPrefix>-<count>` and goes to the group
 * `pickGroup(count)` names, with the body `bodyOf` makes for it.
 */
export function keyedPostOptions(options: {
  target: string;
  headers: Record<string, string>;
  bodyOf: (groupId: string) => string;
  pickGroup: (n: number) => string;
  counter: { n: number };
  keyPrefix: string;
}): autocannon.Options {
  const { headers, bodyOf, pickGroup, counter, keyPrefix } = options;
  return {
    url: `${options.target}/v1/expenses`,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const n = ++counter.n;
          return {
            ...req,
            headers: { ...headers, 'idempotency-key': `${keyPrefix}-${n}` },
            body: bodyOf(pickGroup(n)),
          };
        },
      },
    ],
  };
}

/** Keyed `POST /v1/expenses` by `user`, a new key each, round-robin over the user's groups. */
export function keyedExpenseLoad(
  api: string,
  user: BenchUser,
  options: { keyPrefix: string; connections: number; duration: number },
) {
  return autocannon({
    ...keyedPostOptions({
      target: api,
      headers: user.auth,
      bodyOf: expenseBodyOf(user.userId),
      pickGroup: (n) => user.groups[n % user.groups.length] as string,
      counter: { n: 0 },
      keyPrefix: options.keyPrefix,
    }),
    connections: options.connections,
    duration: options.duration,
  });
}
