import {
  type GroupEvent,
  MemoryOutboxStorage,
  MemoryTokenStore,
  type OutboxEntry,
  type OutboxOptions,
  type OutboxSettled,
  TallyClient,
  type TallyClientOptions,
} from '../../packages/client/src';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { FaultProxy } from './fault-proxy';

export const DAY_MS = 86_400_000;

/** A memory storage that also answers synchronously what it holds (to check "stored before sent"). */
export class InspectableStorage extends MemoryOutboxStorage {
  readonly held = new Map<string, OutboxEntry>();
  override async put(entry: OutboxEntry): Promise<void> {
    await super.put(entry);
    this.held.set(entry.id, JSON.parse(JSON.stringify(entry)));
  }
  override async remove(id: string): Promise<void> {
    await super.remove(id);
    this.held.delete(id);
  }
}

export const settledOf = (client: TallyClient): OutboxSettled[] => {
  const settled: OutboxSettled[] = [];
  client.outbox.on('settled', (s) => settled.push(s));
  return settled;
};
export let t: TestServer;
export let recorder: FaultProxy;
export let ada: TestUser;
export let bob: TestUser;
export let g1: string;
export let g2: string;
export const clients: TallyClient[] = [];

export const clientFor = (
  user: TestUser | undefined,
  outbox: OutboxOptions,
  extra: Partial<TallyClientOptions> = {},
): TallyClient => {
  const client = new TallyClient({
    baseUrl: recorder.url,
    tokenStore: new MemoryTokenStore(
      user ? { accessToken: user.accessToken, refreshToken: user.refreshToken } : undefined,
    ),
    retry: { baseDelayMs: 10, maxDelayMs: 100, attemptTimeoutMs: 2000 },
    outbox,
    ...extra,
  });
  clients.push(client);
  return client;
};
export const direct = (user: TestUser) =>
  new TallyClient({
    baseUrl: t.url,
    tokenStore: new MemoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }),
  });
export const requestsFor = (key: string) => recorder.log.filter((r) => r.key === key);
export const eventsOf = async (groupId: string): Promise<GroupEvent[]> => {
  const events: GroupEvent[] = [];
  for await (const e of direct(ada).groups.allEvents(groupId, { limit: 100 })) events.push(e);
  return events;
};
export const expenseBody = (groupId: string, description: string, amount = 1000) => ({
  groupId,
  description,
  amount,
  paidBy: ada.id,
  split: { type: 'equal' as const, between: [ada.id, bob.id] },
});

/** Registers the server's start and stop for the calling file (each file has its own). */
export function useOutboxServer(): void {
  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    g1 = await t.createGroup(ada, [bob]);
    g2 = await t.createGroup(ada, [bob]);
    recorder = await FaultProxy.start({
      target: t.url,
      weights: { forward: 1, delay: 0, slow: 0, 'reset-before': 0, 'drop-response': 0 },
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.outbox.stop()));
  });
  afterAll(async () => {
    await recorder?.close();
    await t?.stop();
  });
}
