import {
  EmailTakenError,
  type Expense,
  etagOf,
  IdempotencyKeyReusedError,
  InvalidCredentialsError,
  MemberHasBalanceError,
  NotAMemberError,
  NotFoundError,
  PreconditionFailedError,
  type ProblemError,
  type Session,
  SplitMismatchError,
  type TallyClient,
  UnauthenticatedError,
  ValidationFailedError,
} from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/**
 * Every typed method against the real server (fresh PostgreSQL database): the request and response
 * types match what the server accepts and answers, and its problems become the typed error classes.
 */
describe('TallyClient against the real server', () => {
  let t: TestServer;
  let ada: TallyClient;
  let bob: TallyClient;
  let adaSession: Session;
  let bobSession: Session;
  let groupId: string;

  const newClient = () => quickClient(t.url);

  beforeAll(async () => {
    t = await startTestServer();
    ada = newClient();
    bob = newClient();
    adaSession = await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
    bobSession = await bob.auth.register({ email: uniqueEmail('bob'), name: 'Bob', password: PASSWORD });
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('auth', () => {
    it('registers, logs in, answers me, refreshes (rotating) and maps auth problems to typed errors', async () => {
      expect(adaSession.user).toMatchObject({ name: 'Ada', id: expect.stringMatching(/^usr_/) });
      expect(adaSession.expiresIn).toBeGreaterThan(0);
      expect(await ada.auth.me()).toEqual(adaSession.user);

      const other = newClient();
      const session = await other.auth.login({ email: adaSession.user.email, password: PASSWORD });
      expect(session.user.id).toBe(adaSession.user.id);
      const before = await other.tokens.tokens();
      const rotated = await other.auth.refresh();
      expect(rotated?.refreshToken).not.toBe(before?.refreshToken);
      expect((await other.auth.me()).id).toBe(adaSession.user.id);

      expect(
        await rejection(newClient().auth.login({ email: adaSession.user.email, password: 'wrong password' })),
      ).toBeInstanceOf(InvalidCredentialsError);
      expect(
        await rejection(
          newClient().auth.register({ email: adaSession.user.email, name: 'X', password: PASSWORD }),
        ),
      ).toBeInstanceOf(EmailTakenError);
      expect(await rejection(newClient().auth.me())).toBeInstanceOf(UnauthenticatedError);
    });

    it('refreshes by itself when the server refuses an access token', async () => {
      const client = newClient();
      const session = await client.auth.login({ email: bobSession.user.email, password: PASSWORD });
      // Replace the access token with garbage, keeping the (valid) refresh token.
      await client.tokens.setSession({ ...session, accessToken: 'not-a-jwt' });
      expect((await client.auth.me()).id).toBe(bobSession.user.id);
      expect((await client.tokens.tokens())?.accessToken).not.toBe('not-a-jwt');
    });
  });

  describe('groups and members', () => {
    it('creates, lists (with pagination), reads, updates with If-Match, adds and removes members', async () => {
      const group = await ada.groups.create({ name: 'Goa', currency: 'INR', description: 'Trip' });
      groupId = group.id;
      expect(group).toMatchObject({ name: 'Goa', currency: 'INR', description: 'Trip', version: 1 });
      expect(group.members.map((m) => m.userId)).toEqual([adaSession.user.id]);

      const member = await ada.groups.addMember(groupId, { userId: bobSession.user.id });
      expect(member).toMatchObject({ userId: bobSession.user.id, name: 'Bob' });
      // Adding again answers the member (200), not an error.
      expect((await ada.groups.addMember(groupId, { email: bobSession.user.email })).userId).toBe(
        bobSession.user.id,
      );
      expect(await rejection(ada.groups.addMember(groupId, { email: uniqueEmail('nobody') }))).toBeInstanceOf(
        NotFoundError,
      );

      const read = await bob.groups.get(groupId);
      expect(read.members.map((m) => m.userId)).toEqual([adaSession.user.id, bobSession.user.id]);
      const updated = await ada.groups.update(groupId, { name: 'Goa 2026' }, { ifMatch: etagOf(read) });
      expect(updated).toMatchObject({ name: 'Goa 2026', version: read.version + 1 });
      expect(
        await rejection(ada.groups.update(groupId, { name: 'x' }, { ifMatch: etagOf(read) })),
      ).toBeInstanceOf(PreconditionFailedError);

      for (let i = 0; i < 3; i++) await ada.groups.create({ name: `Extra ${i}` });
      const first = await ada.groups.list({ limit: 2 });
      expect(first.data).toHaveLength(2);
      expect(first.nextCursor).toEqual(expect.any(String));
      const all = [];
      for await (const g of ada.groups.listAll({ limit: 2 })) all.push(g.id);
      expect(all).toHaveLength(4);
      expect(all).toContain(groupId);

      const outsider = newClient();
      await outsider.auth.register({ email: uniqueEmail('eve'), name: 'Eve', password: PASSWORD });
      expect(await rejection(outsider.groups.get(groupId))).toBeInstanceOf(NotFoundError);
      await ada.groups.addMember(groupId, { email: (await outsider.auth.me()).email });
      await outsider.groups.removeMember(groupId, (await outsider.auth.me()).id);
      expect(await rejection(outsider.groups.get(groupId))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('expenses, settlements, balances and events', () => {
    let dinner: Expense;

    it('creates, reads, lists, replaces, patches, deletes and restores expenses', async () => {
      const a = adaSession.user.id;
      const b = bobSession.user.id;
      dinner = await ada.expenses.create({
        groupId,
        description: 'Dinner',
        amount: 100000,
        paidBy: a,
        split: { type: 'equal', between: [a, b] },
      });
      expect(dinner).toMatchObject({
        groupId,
        amount: 100000,
        currency: 'INR',
        category: null,
        paidBy: [{ userId: a, amount: 100000 }],
        shares: [
          { userId: a, owed: 50000 },
          { userId: b, owed: 50000 },
        ],
        version: 1,
      });
      expect(await bob.expenses.get(dinner.id)).toEqual(dinner);
      expect(await ada.expenses.getIfChanged(dinner.id, etagOf(dinner))).toBeNull();

      const patched = await ada.expenses.patch(dinner.id, { amount: 90000 }, { ifMatch: etagOf(dinner) });
      expect(patched).toMatchObject({ amount: 90000, version: 2 });
      expect(await ada.expenses.getIfChanged(dinner.id, etagOf(dinner))).toMatchObject({ version: 2 });
      expect(
        await rejection(ada.expenses.patch(dinner.id, { amount: 1 }, { ifMatch: etagOf(dinner) })),
      ).toBeInstanceOf(PreconditionFailedError);

      const replaced = await ada.expenses.put(dinner.id, {
        groupId,
        description: 'Dinner (fixed)',
        amount: 80000,
        paidBy: [
          { userId: a, amount: 50000 },
          { userId: b, amount: 30000 },
        ],
        split: {
          type: 'shares',
          between: [
            { userId: a, shares: 1 },
            { userId: b, shares: 3 },
          ],
        },
        category: 'food',
      });
      expect(replaced).toMatchObject({ description: 'Dinner (fixed)', amount: 80000, category: 'food' });

      const chosenId = `offline_${Date.now()}`;
      const offline = await bob.expenses.put(chosenId, {
        groupId,
        description: 'Taxi',
        amount: 3000,
        paidBy: b,
        split: {
          type: 'percent',
          between: [
            { userId: a, percent: 33.33 },
            { userId: b, percent: 66.67 },
          ],
        },
      });
      expect(offline.id).toBe(chosenId);

      const page = await ada.expenses.list(groupId, { limit: 1 });
      expect(page.data).toHaveLength(1);
      const ids = [];
      for await (const e of ada.expenses.listAll(groupId, { limit: 1 })) ids.push(e.id);
      expect(ids.sort()).toEqual([chosenId, dinner.id].sort());

      await bob.expenses.delete(chosenId);
      await bob.expenses.delete(chosenId); // deleting again is 204 again
      expect(await rejection(ada.expenses.get(chosenId))).toBeInstanceOf(NotFoundError);
      const restored = await ada.expenses.restore(chosenId);
      expect(restored.id).toBe(chosenId);
      expect((await ada.expenses.get(chosenId)).description).toBe('Taxi');
    });

    it('maps validation problems to typed errors with their field errors', async () => {
      const a = adaSession.user.id;
      const b = bobSession.user.id;
      const validation = (await rejection(
        ada.expenses.create({
          groupId,
          description: 'x',
          amount: 0,
          paidBy: a,
          split: { type: 'equal', between: [a] },
        }),
      )) as ValidationFailedError;
      expect(validation).toBeInstanceOf(ValidationFailedError);
      expect(validation.status).toBe(422);
      expect(validation.errors.map((e) => e.path)).toContain('amount');

      expect(
        await rejection(
          ada.expenses.create({
            groupId,
            description: 'x',
            amount: 100,
            paidBy: a,
            split: {
              type: 'exact',
              between: [
                { userId: a, amount: 10 },
                { userId: b, amount: 10 },
              ],
            },
          }),
        ),
      ).toBeInstanceOf(SplitMismatchError);
      expect(
        await rejection(
          ada.settlements.create({
            groupId,
            fromUserId: a,
            toUserId: 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC',
            amount: 5,
          }),
        ),
      ).toBeInstanceOf(NotAMemberError);
    });

    it('replays a write retried with the same key, and refuses the key for a different body', async () => {
      const a = adaSession.user.id;
      const body = {
        groupId,
        description: 'Snacks',
        amount: 500,
        paidBy: a,
        split: { type: 'equal' as const, between: [a] },
      };
      const key = `snacks-${Date.now()}`;
      const first = await ada.http.request<Expense>({
        method: 'POST',
        path: '/v1/expenses',
        body,
        idempotencyKey: key,
      });
      const again = await ada.http.request<Expense>({
        method: 'POST',
        path: '/v1/expenses',
        body,
        idempotencyKey: key,
      });
      expect(first.status).toBe(201);
      expect(first.replayed).toBe(false);
      expect(again.replayed).toBe(true);
      expect(again.data.id).toBe(first.data.id);
      expect(again.location).toBe(`/v1/expenses/${first.data.id}`);
      const reused = await rejection(ada.expenses.create({ ...body, amount: 501 }, { idempotencyKey: key }));
      expect(reused).toBeInstanceOf(IdempotencyKeyReusedError);
      expect((reused as ProblemError).requestId).toEqual(expect.any(String));
    });

    it('creates, reads, lists and deletes settlements; balances and events follow', async () => {
      const a = adaSession.user.id;
      const b = bobSession.user.id;
      const balances = await ada.groups.balances(groupId);
      const bobNet = balances.currencies[0]?.members.find((m) => m.userId === b)?.net ?? 0;
      expect(bobNet).toBeLessThan(0);
      expect(await rejection(ada.groups.removeMember(groupId, b))).toBeInstanceOf(MemberHasBalanceError);

      const settlement = await bob.settlements.create({
        groupId,
        fromUserId: b,
        toUserId: a,
        amount: -bobNet,
        note: 'UPI',
      });
      expect(settlement).toMatchObject({
        fromUserId: b,
        toUserId: a,
        amount: -bobNet,
        note: 'UPI',
        currency: 'INR',
      });
      expect(await ada.settlements.get(settlement.id)).toEqual(settlement);
      expect((await ada.settlements.list(groupId)).data.map((s) => s.id)).toEqual([settlement.id]);
      const all = [];
      for await (const s of ada.settlements.listAll(groupId)) all.push(s);
      expect(all).toHaveLength(1);

      const settled = await ada.groups.balances(groupId);
      expect(settled.currencies[0]?.members.every((m) => m.net === 0)).toBe(true);
      expect(settled.asOfSeq).toBeGreaterThan(balances.asOfSeq);

      await bob.settlements.delete(settlement.id);
      expect((await ada.settlements.list(groupId)).data).toEqual([]);

      const events = [];
      for await (const event of ada.groups.allEvents(groupId, { limit: 3 })) events.push(event);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.at(-1)?.type).toBe('settlement.deleted');
      const last = events.at(-1);
      if (last?.type === 'settlement.deleted') expect(last.data.settlement.id).toBe(settlement.id);
      const after = await ada.groups.events(groupId, { afterSeq: events.length - 2 });
      expect(after.data.map((e) => e.seq)).toEqual([events.length - 1, events.length]);
      expect(after.nextCursor).toBeNull();
    });
  });
});
