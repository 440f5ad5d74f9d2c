/**
 * Recurring expenses over HTTP (API.md §6a): creating a schedule, its bounds, reading, listing,
 * changing and stopping it. The server's own scheduler stays off; the scheduler's rounds are in
 * recurring-scheduler.test.ts.
 */
import { newKey } from '../support/test-server';
import { expectProblem, expectValidationFailed, RFC3339_UTC } from './component-helpers';
import {
  ada,
  bob,
  eventsOf,
  expensesOf,
  onOneDay,
  outsider,
  postRecurring,
  schedule,
  scheduler,
  setClock,
  t,
  template,
  today,
  useRecurringServer,
  weeksBefore,
} from './recurring-fixture';

describe('recurring expenses (API.md §6a)', () => {
  useRecurringServer();

  describe('POST /v1/groups/{groupId}/recurring', () => {
    it('creates a schedule: 201 with the documented fields, ETag, Location and a recurring.created event', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await postRecurring(ada, groupId, {
        expense: template(ada, [ada, bob]),
        schedule: schedule({ until: '2027-12-31' }),
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^rec_[0-9A-HJKMNP-TV-Z]{26}$/),
        groupId,
        expense: template(ada, [ada, bob]),
        schedule: { every: 'week', startsOn: '2027-03-07', until: '2027-12-31', timeZone: 'Europe/Berlin' },
        nextOccurrence: '2027-03-07',
        createdBy: ada.id,
        version: 1,
        createdAt: expect.stringMatching(RFC3339_UTC),
        updatedAt: expect.stringMatching(RFC3339_UTC),
      });
      expect(res.headers.etag).toBe('"v1"');
      expect(res.headers.location).toBe(`/v1/recurring/${res.body.id}`);
      const events = await eventsOf(bob, groupId);
      expect(events.map((e) => e.type)).toContain('recurring.created');
      expect(events.find((e) => e.type === 'recurring.created')?.data).toEqual({ recurring: res.body });
    });

    it('requires an Idempotency-Key and replays the first answer for a retry', async () => {
      const groupId = await t.createGroup(ada);
      const body = { expense: template(ada, [ada]), schedule: schedule() };
      expectProblem(await postRecurring(ada, groupId, body, null), 400, 'idempotency_key_missing');
      const key = newKey();
      const first = await postRecurring(ada, groupId, body, key);
      const again = await postRecurring(ada, groupId, body, key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      const list = await t.request.get(`/v1/groups/${groupId}/recurring`).set(ada.auth);
      expect(list.body.data).toHaveLength(1);
    });

    it('refuses an unknown time zone, until before startsOn, a bad every and a bad date with 422', async () => {
      const groupId = await t.createGroup(ada);
      const expense = template(ada, [ada]);
      expectValidationFailed(
        await postRecurring(ada, groupId, { expense, schedule: schedule({ timeZone: 'Mars/Olympus' }) }),
        'schedule.timeZone',
      );
      expectValidationFailed(
        await postRecurring(ada, groupId, {
          expense,
          schedule: schedule({ startsOn: '2027-03-07', until: '2027-03-06' }),
        }),
        'schedule.until',
      );
      expectValidationFailed(
        await postRecurring(ada, groupId, { expense, schedule: schedule({ every: 'fortnight' }) }),
        'schedule.every',
      );
      expectValidationFailed(
        await postRecurring(ada, groupId, { expense, schedule: schedule({ startsOn: '2027-02-30' }) }),
        'schedule.startsOn',
      );
      expectValidationFailed(
        await postRecurring(ada, groupId, {
          expense: { ...expense, occurredAt: '2027-01-01T00:00:00Z' },
          schedule: schedule(),
        }),
        'expense.occurredAt',
      );
      const mismatch = await postRecurring(ada, groupId, {
        expense: template(ada, [ada], { split: { type: 'exact', between: [{ userId: ada.id, amount: 1 }] } }),
        schedule: schedule(),
      });
      expectProblem(mismatch, 422, 'split_mismatch');
      for (const e of mismatch.body.errors ?? []) expect(e.path).toMatch(/^expense\./);
      const list = await t.request.get(`/v1/groups/${groupId}/recurring`).set(ada.auth);
      expect(list.body.data).toEqual([]);
    });

    it('takes IANA zone names in any case and keeps the zone’s one name; refuses UTC offsets (422)', async () => {
      const groupId = await t.createGroup(ada);
      const expense = template(ada, [ada]);
      const kept = async (timeZone: string) => {
        // Far ahead: never due in this file's scheduler rounds.
        const res = await postRecurring(ada, groupId, {
          expense,
          schedule: schedule({ timeZone, startsOn: '2099-03-07' }),
        });
        expect(res.status).toBe(201);
        const read = await t.request.get(`/v1/recurring/${res.body.id}`).set(ada.auth);
        expect(read.body.schedule.timeZone).toBe(res.body.schedule.timeZone);
        return { id: res.body.id as string, timeZone: res.body.schedule.timeZone as string };
      };
      expect((await kept('europe/berlin')).timeZone).toBe('Europe/Berlin');
      expect((await kept('Etc/UTC')).timeZone).toBe('UTC');
      expect((await kept('Asia/Calcutta')).timeZone).toBe('Asia/Kolkata');
      const renamed = await kept('US/Pacific');
      expect(renamed.timeZone).toBe('America/Los_Angeles');
      for (const offset of ['+05:30', '-08:00', 'UTC+1', 'Europe/Nowhere']) {
        expectValidationFailed(
          await postRecurring(ada, groupId, { expense, schedule: schedule({ timeZone: offset }) }),
          'schedule.timeZone',
        );
      }
      // A PATCH of the zone follows the same rule.
      const patch = (timeZone: string) =>
        t.request
          .patch(`/v1/recurring/${renamed.id}`)
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .send({ schedule: { timeZone } });
      expect((await patch('america/new_york')).body.schedule.timeZone).toBe('America/New_York');
      expectValidationFailed(await patch('+05:30'), 'schedule.timeZone');
      const events = await eventsOf(ada, groupId);
      const zones = events
        .filter((e) => e.type === 'recurring.created' || e.type === 'recurring.updated')
        .map((e) => (e.data.recurring as { schedule: { timeZone: string } }).schedule.timeZone);
      expect(zones).toEqual([
        'Europe/Berlin',
        'UTC',
        'Asia/Kolkata',
        'America/Los_Angeles',
        'America/New_York',
      ]);
    });

    it('answers 404 to a non-member and 422 not_a_member for a template naming one', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const body = { expense: template(ada, [ada]), schedule: schedule() };
      expectProblem(await postRecurring(outsider, groupId, body), 404, 'not_found');
      const res = await postRecurring(ada, groupId, {
        expense: template(ada, [ada, outsider]),
        schedule: schedule(),
      });
      expectProblem(res, 422, 'not_a_member');
      expect(res.body.errors).toEqual([{ path: 'expense.split.between[1]', message: expect.any(String) }]);
    });
  });

  describe('bounds (API.md §6a, §9.1)', () => {
    const expectLimit = (res: Awaited<ReturnType<typeof postRecurring>>, name: string, max: number) => {
      expectProblem(res, 422, 'limit_exceeded');
      expect(res.body.limit).toEqual({ name, max });
    };

    it('refuses a schedule with more than 100 occurrences due at once (recurringBacklog), writing nothing', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const expense = template(ada, [ada, bob]);
      const weekly = (startsOn: string, extra: Record<string, unknown> = {}) => ({
        expense,
        schedule: schedule({ startsOn, timeZone: 'UTC', ...extra }),
      });
      // The issue's request: weekly from the earliest date allowed (1,405 occurrences at once).
      expectLimit(await postRecurring(ada, groupId, weekly('2000-01-01')), 'recurringBacklog', 100);
      expectLimit(
        await postRecurring(ada, groupId, {
          expense,
          schedule: schedule({ every: 'month', startsOn: '2000-01-31', timeZone: 'UTC' }),
        }),
        'recurringBacklog',
        100,
      );
      // 101 due (today's included) is one too many; 100 is allowed.
      expectLimit(
        await onOneDay((day) => postRecurring(ada, groupId, weekly(weeksBefore(day, 100)))),
        'recurringBacklog',
        100,
      );
      const largest = await onOneDay((day) => postRecurring(ada, groupId, weekly(weeksBefore(day, 99))));
      expect(largest.status).toBe(201);
      // Far back but short: what `until` leaves due is what counts; so is a yearly schedule.
      const short = await postRecurring(ada, groupId, weekly('2000-01-01', { until: '2001-01-01' }));
      expect(short.status).toBe(201);
      const yearly = await postRecurring(ada, groupId, weekly('2000-02-29', { every: 'year' }));
      expect(yearly.status).toBe(201);
      const listed = await t.request.get(`/v1/groups/${groupId}/recurring`).set(ada.auth);
      expect(listed.body.data.map((r: { id: string }) => r.id).sort()).toEqual(
        [largest.body.id, short.body.id, yearly.body.id].sort(),
      );
      const created = (await eventsOf(bob, groupId)).filter((e) => e.type === 'recurring.created');
      expect(created).toHaveLength(3);

      // A change may not make the backlog a create could not: lifting `until`, moving `startsOn` back.
      const patch = (id: string, body: unknown) =>
        t.request
          .patch(`/v1/recurring/${id}`)
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .send(body as object);
      expectLimit(await patch(short.body.id, { schedule: { until: null } }), 'recurringBacklog', 100);
      expectLimit(
        await patch(largest.body.id, { schedule: { startsOn: '2020-01-06' } }),
        'recurringBacklog',
        100,
      );
      expectLimit(await patch(yearly.body.id, { schedule: { every: 'week' } }), 'recurringBacklog', 100);
      // Changes that leave the backlog within the bound go through.
      const later = await patch(largest.body.id, { schedule: { until: today() }, expense: { amount: 500 } });
      expect(later.status).toBe(200);
      for (const r of [short, yearly]) {
        const read = await t.request.get(`/v1/recurring/${r.body.id}`).set(ada.auth);
        expect(read.body).toEqual(r.body);
      }
      expect((await eventsOf(bob, groupId)).filter((e) => e.type === 'recurring.updated')).toHaveLength(1);
      // Stopped, so that the scheduler rounds of the tests below do not spend their slices on them.
      for (const r of [largest, short, yearly]) {
        const res = await t.request
          .delete(`/v1/recurring/${r.body.id}`)
          .set(ada.auth)
          .set('Idempotency-Key', newKey());
        expect(res.status).toBe(204);
      }
    });

    it('holds at most 50 live schedules per group (schedulesPerGroup); a deleted one makes room', async () => {
      const groupId = await t.createGroup(ada);
      // Far ahead: never due in this file's scheduler rounds.
      const body = {
        expense: template(ada, [ada]),
        schedule: schedule({ startsOn: '2099-01-01', timeZone: 'UTC' }),
      };
      const ids: string[] = [];
      for (let i = 0; i < 47; i++) {
        const res = await postRecurring(ada, groupId, body);
        expect(res.status).toBe(201);
        ids.push(res.body.id);
      }
      // Five at once for the last three places: exactly three are created, whatever the order
      // (each is decided on the state the one before it leaves, before that one is committed).
      const racing = await Promise.all(Array.from({ length: 5 }, () => postRecurring(ada, groupId, body)));
      expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 201, 422, 422]);
      for (const res of racing.filter((r) => r.status === 422)) expectLimit(res, 'schedulesPerGroup', 50);
      const countLive = async () => {
        let n = 0;
        let cursor: string | null = null;
        do {
          const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
          const page: { data: unknown[]; nextCursor: string | null } = (
            await t.request.get(`/v1/groups/${groupId}/recurring?${query}`).set(ada.auth)
          ).body;
          n += page.data.length;
          cursor = page.nextCursor;
        } while (cursor);
        return n;
      };
      expect(await countLive()).toBe(50);
      expectLimit(await postRecurring(ada, groupId, body), 'schedulesPerGroup', 50);
      expect((await eventsOf(ada, groupId)).filter((e) => e.type === 'recurring.created')).toHaveLength(50);
      // Another group has room of its own; a deleted schedule makes room in this one.
      expect((await postRecurring(ada, await t.createGroup(ada), body)).status).toBe(201);
      const deleted = await t.request
        .delete(`/v1/recurring/${ids[0]}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(deleted.status).toBe(204);
      expect((await postRecurring(ada, groupId, body)).status).toBe(201);
      expect(await countLive()).toBe(50);
    });
  });

  describe('GET, list, PATCH and DELETE', () => {
    it('gets one (404 for a non-member) and lists a group’s schedules newest first, paginated', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await postRecurring(ada, groupId, {
          expense: template(ada, [ada]),
          schedule: schedule(),
        });
        ids.push(res.body.id);
      }
      const one = await t.request.get(`/v1/recurring/${ids[0]}`).set(bob.auth);
      expect(one.status).toBe(200);
      expect(one.body.id).toBe(ids[0]);
      expect(one.headers.etag).toBe('"v1"');
      expectProblem(await t.request.get(`/v1/recurring/${ids[0]}`).set(outsider.auth), 404, 'not_found');
      expectProblem(await t.request.get('/v1/recurring/rec_unknown').set(ada.auth), 404, 'not_found');
      expectProblem(
        await t.request.get(`/v1/groups/${groupId}/recurring`).set(outsider.auth),
        404,
        'not_found',
      );
      const page1 = await t.request.get(`/v1/groups/${groupId}/recurring?limit=2`).set(ada.auth);
      expect(page1.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
      expect(page1.body.nextCursor).toEqual(expect.any(String));
      const page2 = await t.request
        .get(`/v1/groups/${groupId}/recurring?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`)
        .set(ada.auth);
      expect(page2.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    });

    it('patches the template and the schedule with If-Match; a stale version is 412', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada, bob]),
        schedule: schedule(),
      });
      const url = `/v1/recurring/${created.body.id}`;
      const patched = await t.request
        .patch(url)
        .set(bob.auth)
        .set('Idempotency-Key', newKey())
        .set('If-Match', '"v1"')
        .send({ expense: { amount: 1200 }, schedule: { every: 'month', until: '2027-06-30' } });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual(
        expect.objectContaining({
          expense: template(ada, [ada, bob], { amount: 1200 }),
          schedule: {
            every: 'month',
            startsOn: '2027-03-07',
            until: '2027-06-30',
            timeZone: 'Europe/Berlin',
          },
          nextOccurrence: '2027-03-07',
          version: 2,
        }),
      );
      expect(patched.headers.etag).toBe('"v2"');
      const stale = await t.request
        .patch(url)
        .set(bob.auth)
        .set('Idempotency-Key', newKey())
        .set('If-Match', '"v1"')
        .send({ expense: { amount: 5 } });
      expectProblem(stale, 412, 'precondition_failed');
      const backwards = await t.request
        .patch(url)
        .set(bob.auth)
        .set('Idempotency-Key', newKey())
        .send({ schedule: { until: '2027-01-01' } });
      expectValidationFailed(backwards, 'schedule.until');
      expectValidationFailed(
        await t.request.patch(url).set(bob.auth).set('Idempotency-Key', newKey()).send({}),
        'body',
      );
      const events = await eventsOf(ada, groupId);
      expect(events.filter((e) => e.type === 'recurring.updated')).toHaveLength(1);
    });

    it('continues a changed schedule after the last occurrence created', async () => {
      const groupId = await t.createGroup(ada);
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada]),
        schedule: schedule({ startsOn: '2027-01-31', every: 'month', timeZone: 'UTC' }),
      });
      setClock(new Date('2027-03-01T00:00:00Z'));
      await scheduler.runUntilCaughtUp();
      expect((await expensesOf(ada, groupId)).map((e) => e.occurredAt)).toEqual([
        '2027-02-28T00:00:00.000Z',
        '2027-01-31T00:00:00.000Z',
      ]);
      const patched = await t.request
        .patch(`/v1/recurring/${created.body.id}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ schedule: { every: 'week', startsOn: '2027-02-01' } });
      expect(patched.status).toBe(200);
      // Weekly from Mon Feb 1: the first after Feb 28 is Mar 1.
      expect(patched.body.nextOccurrence).toBe('2027-03-01');
    });

    it('deletes (stops) a schedule: its past occurrences stay, no new ones come, a repeat is 204', async () => {
      const groupId = await t.createGroup(ada);
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada]),
        schedule: schedule({ startsOn: '2027-05-03', timeZone: 'UTC' }),
      });
      setClock(new Date('2027-05-10T00:00:00Z'));
      await scheduler.runUntilCaughtUp();
      expect(await expensesOf(ada, groupId)).toHaveLength(2);
      const url = `/v1/recurring/${created.body.id}`;
      expectProblem(
        await t.request.delete(url).set(ada.auth).set('Idempotency-Key', newKey()).set('If-Match', '"v9"'),
        412,
        'precondition_failed',
      );
      expectProblem(await t.request.delete(url).set(ada.auth), 400, 'idempotency_key_missing');
      expect((await t.request.delete(url).set(ada.auth).set('Idempotency-Key', newKey())).status).toBe(204);
      expect((await t.request.delete(url).set(ada.auth).set('Idempotency-Key', newKey())).status).toBe(204);
      expectProblem(await t.request.get(url).set(ada.auth), 404, 'not_found');
      setClock(new Date('2027-08-01T00:00:00Z'));
      await scheduler.runUntilCaughtUp();
      expect(await expensesOf(ada, groupId)).toHaveLength(2);
      const events = await eventsOf(ada, groupId);
      expect(events.filter((e) => e.type === 'recurring.deleted')).toHaveLength(1);
    });
  });
});
