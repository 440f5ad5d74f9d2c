/**
 * The web app at / (apps/api/src/web-app) in a real headless Chromium against a real server:
 * - sign-up, a group with a pending member, an expense and its balances as bars; a reload keeps the
 *   session;
 * - an expense made offline (context.setOffline) waits in the SDK's IndexedDB outbox with a visible
 *   "waiting to sync (1)", survives a reload with no network (the service worker serves the shell),
 *   and is created exactly once when the network is back;
 * - two browser contexts that share nothing: Bob's page moves his balance bar live when Ada adds an
 *   expense;
 * - axe-core finds no serious or critical violation on each screen.
 *
 * Every check waits for what it looks for (a locator's `waitFor`, or `until`), never reads once.
 */
import { uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { APP_PATH, AppUnderTest, addExpense, createGroup, expectBar, PASSWORD, signUp } from './app-steps';

describe('the web app at / in headless Chromium', () => {
  const app = new AppUnderTest();
  const openApp = () => app.openApp();
  const checkAccessibility = (page: Parameters<AppUnderTest['checkAccessibility']>[0], screen: string) =>
    app.checkAccessibility(page, screen);

  beforeAll(() => app.start(), 120_000);
  afterAll(() => app.stop());

  it('signs up, makes a group with a pending member and an expense, shows the bars; a reload stays signed in', async () => {
    const { page } = await openApp();
    await checkAccessibility(page, 'sign in');
    await signUp(page, 'Ada');
    await checkAccessibility(page, 'groups');
    await createGroup(page, 'Lisbon');
    await page.getByLabel('Add someone not on Tally yet').fill('Cy');
    await page.locator('#pending-form button').click();
    await page.locator('#member-list li', { hasText: 'Cy' }).waitFor();
    await addExpense(page, 'Dinner', '30.00');
    await page.locator('#expense-list li', { hasText: 'Dinner' }).waitFor();
    await expectBar(page, 'Ada', '€15.00');
    await expectBar(page, 'Cy', '-€15.00');
    await page.locator('#transfers li', { hasText: 'Cy owes Ada €15.00' }).waitFor();
    await page.getByLabel('Valid for').selectOption('30');
    await page.getByRole('button', { name: 'Make an invite link' }).click();
    await page.locator('#invite-link').waitFor();
    // Made for 30 days, as chosen.
    const [invite] = await app.t.db!.knex('invites').orderBy('created_at', 'desc').limit(1);
    const days = (new Date(invite.expires_at).getTime() - new Date(invite.created_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    await page.locator('svg.qr').waitFor();
    await checkAccessibility(page, 'group');

    await page.reload();
    await page.locator('#account-link').waitFor();
    await expectBar(page, 'Ada', '€15.00');

    // The link a notification mails or pushes (API.md §13.2) opens the expense.
    const groupId = new URL(page.url()).hash.split('/')[2] as string;
    const expenseId = (await app.t.db!.knex('expenses').where({ group_id: groupId }).first('id'))
      .id as string;
    await page.goto(`${app.t.url}/#group=${groupId}&record=${expenseId}`);
    await page.locator('#expense-form').waitFor();
    await page.goto(`${app.t.url}/#group=${groupId}`);
    await expectBar(page, 'Ada', '€15.00');

    // Settle up from the simplified debts: the balances go to zero live.
    await page.locator('#transfers button', { hasText: 'Settle up' }).click();
    await expectBar(page, 'Cy', '€0.00');
    await page.locator('#settlement-list li', { hasText: 'Cy paid Ada' }).waitFor();

    await page.locator('#expense-list a', { hasText: 'Dinner' }).click();
    await page.locator('#expense-form').waitFor();
    await page.getByLabel('Comment', { exact: true }).fill('Thanks!');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.locator('#comment-list li', { hasText: 'Thanks!' }).waitFor();
    await checkAccessibility(page, 'edit expense');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.locator('#add-expense').click();
    await page.locator('#expense-form').waitFor();
    await page.getByLabel('Shares').check();
    await checkAccessibility(page, 'add expense');
    // Two payers and an exact split.
    await page.getByLabel('Description').fill('Hotel');
    await page.getByLabel(/^Amount/).fill('30');
    await page.locator('#payers').getByLabel('Cy', { exact: true }).check();
    await page.getByLabel('Ada paid').fill('15');
    await page.getByLabel('Cy paid').fill('15');
    await page.getByLabel('Exact amounts').check();
    await page.getByLabel("Ada's part").fill('10');
    await page.getByLabel("Cy's part").fill('20');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectBar(page, 'Ada', '€5.00');
    await expectBar(page, 'Cy', '-€5.00');
    await page.getByLabel('Search expenses').fill('hotel');
    await page.getByRole('button', { name: 'Search' }).click();
    await until(async () => {
      expect(await page.locator('#expense-list li').allTextContents()).toEqual([
        expect.stringContaining('Hotel'),
      ]);
    });

    // Someone already on Tally, by email (after the splits above: it changes none of them).
    const eve = await app.t.register('Eve');
    await page.getByLabel('Add someone on Tally by email').fill(eve.email);
    await page.locator('#member-form button').click();
    await page.locator('#member-list li', { hasText: 'Eve' }).waitFor();
    await page.getByRole('link', { name: /Activity/ }).click();
    await page.locator('#activity-list li', { hasText: 'Dinner' }).first().waitFor();
    await checkAccessibility(page, 'activity');
    await page.locator('#account-link').click();
    await page.locator('#sessions li', { hasText: 'this device' }).waitFor();
    await checkAccessibility(page, 'account');
    expect(app.problems).toEqual([]);
  });

  it('keeps an expense made offline in the outbox, through an offline reload, and creates it once online', async () => {
    const { page, context } = await openApp();
    await signUp(page, 'Oda');
    const groupId = await createGroup(page, 'Road trip');
    // The service worker has precached the shell.
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)'); // the page's DOM types are not this file's

    await context.setOffline(true);
    await addExpense(page, 'Fuel', '42.50');
    await page.locator('#sync', { hasText: 'waiting to sync (1)' }).waitFor();
    await page.locator('#expense-list li[data-pending=true]', { hasText: 'Fuel' }).waitFor();

    // No network at all: the shell comes from the service worker, the write from IndexedDB.
    await page.reload();
    await page.locator('#sync', { hasText: 'waiting to sync (1)' }).waitFor();

    await context.setOffline(false);
    await page.locator('#sync', { hasText: 'all synced' }).waitFor({ timeout: 30_000 });
    await until(async () => {
      const rows = await app.t.db!.knex('expenses').where({ group_id: groupId });
      expect(rows.map((r: { description: string }) => r.description)).toEqual(['Fuel']);
    });
    await page.goto(`${app.t.url}${APP_PATH}#/g/${groupId}`);
    await expectBar(page, 'Oda', '€0.00');
    await page.locator('#expense-list li', { hasText: 'Fuel' }).waitFor();
    // Exactly once, whatever the retries: one expense row, one expense.created event.
    const events = await app.t.db!.knex('events').where({ group_id: groupId, type: 'expense.created' });
    expect(events).toHaveLength(1);
    expect(app.problems).toEqual([]);
  });

  it("shows one person's expense live on another's page (two contexts that share nothing)", async () => {
    const { page: ada } = await openApp();
    const { page: bob } = await openApp();
    await signUp(ada, 'Ana');
    await signUp(bob, 'Bea');
    await createGroup(ada, 'Flat');
    // Ana keeps a place for Bea, then sends her the invite link; Bea takes that place over (a claim).
    await ada.getByLabel('Add someone not on Tally yet').fill('Bea');
    await ada.locator('#pending-form button').click();
    await ada.locator('#member-list li', { hasText: 'not on Tally yet' }).waitFor();
    await ada.getByRole('button', { name: 'Make an invite link' }).click();
    const invite = (await ada.locator('#invite-link').getAttribute('href')) as string;
    expect(invite).toMatch(/:\d+\/#\/join\/[A-Za-z0-9_-]{43}$/);

    await bob.goto(invite);
    await bob.getByLabel('Join as').selectOption({ label: 'Bea' });
    await checkAccessibility(bob, 'join');
    await bob.getByRole('button', { name: 'Join a group' }).click();
    await bob.locator('#group-name', { hasText: 'Flat' }).waitFor();
    await ada.locator('#member-list li', { hasText: 'not on Tally yet' }).waitFor({ state: 'detached' });
    await expectBar(bob, 'Bea', '€0.00');

    await addExpense(ada, 'Groceries', '20.00');
    // Bob's page did not reload: the WebSocket moved his bar and his list.
    await expectBar(bob, 'Bea', '-€10.00');
    await bob.locator('#expense-list li', { hasText: 'Groceries' }).waitFor();
    await bob.locator('#unread').waitFor();
    expect(app.problems).toEqual([]);
    expect(app.violations).toEqual([]);
  });

  it('is usable from the keyboard alone (sign-up, the navigation), and changes the password', async () => {
    const { page } = await openApp();
    /** Presses Tab until the focused element matches `selector` (at most 15 times). */
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 15; i += 1) {
        await page.keyboard.press('Tab');
        if (await page.locator(`${selector}:focus`).count()) return;
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await tabTo('#auth-form button[type=button]');
    await page.keyboard.press('Enter'); // "I am new here"
    await page.locator('#auth-form input[name=name]').waitFor();
    await tabTo('#auth-form input[name=name]');
    await page.keyboard.type('Kai');
    await page.keyboard.press('Tab');
    await page.keyboard.type(uniqueEmail('kai'));
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.locator('#account-link').waitFor();
    await tabTo('#account-link');
    await page.keyboard.press('Enter');
    await page.locator('#sessions li', { hasText: 'this device' }).waitFor();

    // The password, changed from the account screen: a wrong current one is refused first.
    const change = page.locator('#password-form');
    await change.getByLabel('Current password').fill('not my password');
    await change.getByLabel('New password').fill('changed horse battery');
    await change.locator('button[type=submit]').click();
    await page.locator('#status.error', { hasText: /current password/i }).waitFor();
    await change.getByLabel('Current password').fill(PASSWORD);
    await change.getByLabel('New password').fill('changed horse battery');
    await change.locator('button[type=submit]').click();
    await page.locator('#status', { hasText: 'Password changed.' }).waitFor();
    await page.locator('#account-link').waitFor();
    expect(app.problems).toEqual([]);
  });
});
