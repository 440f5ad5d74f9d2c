/**
 * The web app's money screens (issue 35; apps/api/src/web-app/app) in a real headless Chromium
 * against a real server: categories (picker, screen, filter), statistics as SVG charts that move
 * live, the itemized split with its shares shown before saving, receipts, an expense's history among
 * its comments, duplicating, negative amounts, the group's settings and archiving, recurring
 * expenses. One server, one Chromium, one signed-up user (Ada) with one group for the whole file;
 * Bob (made through the API) is a member too, so that what moves can be checked in the API.
 *
 * Every check waits for what it looks for (a locator's `waitFor`, or `until`), never reads once.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { newKey, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { AppUnderTest, addExpense, createGroup, signUp } from './app-steps';

type Expense = {
  id: string;
  description: string;
  amount: number;
  categoryId: string | null;
  recurringId: string | null;
  split: { type: string };
  shares: { userId: string; owed: number }[];
};

describe('the web app: the money screens', () => {
  const app = new AppUnderTest();
  let page: Page;
  let groupId: string;
  let bob: TestUser;
  let adaId: string;

  const api = () => app.t.request;
  const expensesInApi = async (): Promise<Expense[]> =>
    (await api().get(`/v1/groups/${groupId}/expenses?limit=100`).set(bob.auth).expect(200)).body.data;
  /** Opens a screen of the group by its hash (a same-document navigation, no reload). */
  const show = async (screen = '') => {
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/g/${groupId}${screen}`)}`);
  };
  const openGroup = async () => {
    await show();
    await page.locator('#expenses-title').waitFor();
  };
  const openExpense = async (description: string) => {
    await openGroup();
    await page.locator('#expense-list a', { hasText: description }).first().click();
    await page.locator('#expense-form').waitFor();
  };

  beforeAll(async () => {
    await app.start();
    bob = await app.t.register('Bob');
    ({ page } = await app.openApp());
    await signUp(page, 'Ada');
    groupId = await createGroup(page, 'Money');
    await page.getByLabel('Add someone not on Tally yet').fill('Cy');
    await page.locator('#pending-form button').click();
    await page.getByLabel('Add someone on Tally by email').fill(bob.email);
    await page.locator('#member-form button').click();
    await page.locator('#member-list li', { hasText: 'Bob' }).waitFor();
    const group = (await api().get(`/v1/groups/${groupId}`).set(bob.auth).expect(200)).body;
    adaId = group.members.find((m: { name: string }) => m.name === 'Ada').userId;
  }, 120_000);
  afterAll(() => app.stop());

  it('makes, renames, merges and deletes categories; picks one on an expense; filters the list by it', async () => {
    await show('/categories');
    const create = async (name: string, icon: string) => {
      const form = page.locator('#category-form');
      await form.getByLabel('Category name').fill(name);
      await form.getByLabel('Icon (an emoji)').fill(icon);
      await form.getByLabel('Colour').fill('#aa3300');
      await form.getByRole('button', { name: 'Create' }).click();
      await page.locator('#status', { hasText: `Added the category ${name}.` }).waitFor();
    };
    await create('Boat', '⛵');
    await create('Ferry', '⛴️');
    await app.checkAccessibility(page, 'categories');

    // An expense in Ferry, picked on the form.
    await openGroup();
    await page.locator('#add-expense').click();
    await page.getByLabel('Description').fill('Crossing');
    await page.getByLabel(/^Amount/).fill('9.00');
    await page.getByLabel(/^Category/).selectOption({ label: '⛴️ Ferry' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .locator('#expense-list li', { hasText: 'Crossing' })
      .locator('.category', { hasText: 'Ferry' })
      .waitFor();
    const categories = (await api().get(`/v1/groups/${groupId}/categories`).set(bob.auth).expect(200)).body
      .data;
    const idOf = (name: string) => categories.find((c: { name: string }) => c.name === name).id as string;
    await until(async () => {
      const crossing = (await expensesInApi()).find((e) => e.description === 'Crossing');
      expect(crossing?.categoryId).toBe(idOf('Ferry'));
    });

    // Merge Ferry into Boat, then rename Boat: the expense follows, by id.
    await show('/categories');
    const ferry = page.locator(`#category-list li[data-category="${idOf('Ferry')}"]`);
    await ferry.getByLabel('Move the expenses of Ferry to').selectOption({ label: '⛵ Boat' });
    await ferry.getByRole('button', { name: 'Merge' }).click();
    await page.locator('#status', { hasText: 'Merged Ferry: 1 expenses moved.' }).waitFor();
    const boat = page.locator(`#category-list li[data-category="${idOf('Boat')}"]`);
    await boat.getByLabel('Category name').fill('Boats');
    await boat.getByRole('button', { name: 'Save' }).click();
    await page.locator('#status', { hasText: 'Category saved.' }).waitFor();
    await until(async () => {
      const crossing = (await expensesInApi()).find((e) => e.description === 'Crossing');
      expect(crossing?.categoryId).toBe(idOf('Boat'));
    });

    // The list filtered by the category shows only its expense.
    await openGroup();
    await addExpense(page, 'Bread', '3.00');
    await page.locator('#expense-list li', { hasText: 'Bread' }).waitFor();
    await page.getByLabel('Show the category').selectOption({ label: '⛵ Boats' });
    await until(async () => {
      expect(await page.locator('#expense-list li').allTextContents()).toEqual([
        expect.stringContaining('Crossing'),
      ]);
    });
    await page.getByLabel('Show the category').selectOption({ label: 'All categories' });
    await page.locator('#expense-list li', { hasText: 'Bread' }).waitFor();

    // Deleting it leaves its expense without a category.
    await show('/categories');
    page.once('dialog', (dialog) => void dialog.accept());
    await boat.getByRole('button', { name: 'Delete' }).click();
    await boat.waitFor({ state: 'detached' });
    await until(async () => {
      const crossing = (await expensesInApi()).find((e) => e.description === 'Crossing');
      expect(crossing?.categoryId).toBeNull();
    });
    expect(app.problems).toEqual([]);
  });

  it('charts spending per category, month and member, as text too, and moves live as expenses arrive', async () => {
    await show('/stats');
    // The headings come with the first answer.
    await page.locator('#stats-category-title').waitFor();
    expect(await page.locator('#chart-category-EUR g[data-key=health]').count()).toBe(0);

    // Bob adds an expense through the API: the open charts read again and show it.
    await api()
      .post('/v1/expenses')
      .set(bob.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Pharmacy',
        amount: 5000,
        currency: 'EUR',
        paidBy: bob.id,
        categoryId: 'health',
        split: { type: 'equal', between: [bob.id] },
      })
      .expect(201);
    await page.locator('#chart-category-EUR g[data-key=health][data-total="5000"]').waitFor();
    await page.locator('#chart-category-EUR g[aria-label="💊 Health: €50.00"]').waitFor();
    await page.locator('#chart-category-EUR table tr', { hasText: 'Health' }).waitFor({ state: 'attached' });
    const month = new Date().toISOString().slice(0, 7);
    await page.locator(`#chart-month-EUR g[data-key="${month}"]`).waitFor();
    await page.locator(`#chart-member-EUR g[data-key="${bob.id}"]`).waitFor();
    await app.checkAccessibility(page, 'statistics');

    // A range with nothing in it.
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.getByLabel('To', { exact: true }).fill('2001-01-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await until(async () => {
      expect(await page.locator('p', { hasText: 'Nothing spent in this range.' }).count()).toBe(3);
    });

    // My share across my groups, on the groups screen.
    await page.evaluate(`window.location.hash = '#/'`);
    await page.locator('#my-stats figure').first().waitFor();
    await app.checkAccessibility(page, 'groups with my statistics');
    expect(app.problems).toEqual([]);
  });

  it('splits by items, shows each share before saving, and saves those shares', async () => {
    await openGroup();
    await page.locator('#add-expense').click();
    await page.getByLabel('Description').fill('Pizzeria');
    await page.getByLabel('Items', { exact: true }).check();
    await page.getByLabel('Item 1: what').fill('Pizza');
    await page.getByLabel('Item 1: amount').fill('20');
    await page.getByLabel('Item 1 shared by Bob').uncheck();
    await page.getByRole('button', { name: 'Add an item' }).click();
    await page.getByLabel('Item 2: what').fill('Wine');
    await page.getByLabel('Item 2: amount').fill('10');
    await page.getByLabel('Item 2 shared by Cy').uncheck();
    await page.getByLabel('Item 2 shared by Bob').uncheck();
    await page.getByLabel('Tax').fill('3');
    // Ada: 10 + 10 of 30, Cy: 10 of 30; the tax in proportion: 22 and 11.
    await until(async () => expect(await page.getByLabel(/^Amount/).inputValue()).toBe('33.00'));
    await page.locator('#item-shares li', { hasText: /Ada\s*€22\.00/ }).waitFor();
    await page.locator('#item-shares li', { hasText: /Cy\s*€11\.00/ }).waitFor();
    await app.checkAccessibility(page, 'itemized expense');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#expense-list li', { hasText: 'Pizzeria' }).waitFor();
    await until(async () => {
      const pizzeria = (await expensesInApi()).find((e) => e.description === 'Pizzeria');
      expect(pizzeria?.split.type).toBe('items');
      expect(pizzeria?.amount).toBe(3300);
      expect(pizzeria?.shares).toEqual([
        { userId: adaId, owed: 2200 },
        { userId: expect.any(String), owed: 1100 },
      ]);
    });
    expect(app.problems).toEqual([]);
  });

  it('attaches a receipt, shows its thumbnail by the signed link, opens it, removes it', async () => {
    await openGroup();
    await addExpense(page, 'Groceries', '14.00');
    await openExpense('Groceries');
    await page.locator('#receipt', { hasText: 'No receipt on file.' }).waitFor();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await page
      .getByLabel('Attach a photo or a PDF')
      .setInputFiles({ name: 'r.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload' }).click();
    const thumbnail = page.locator('#receipt img.receipt');
    await thumbnail.waitFor();
    // Loaded through its signed link (img-src 'self'), not only placed.
    await until(async () => {
      // (a string: the test's compiler has no DOM types)
      expect(
        await page.evaluate("document.querySelector('#receipt img.receipt').naturalWidth"),
      ).toBeGreaterThan(0);
    });
    const full = (await page.locator('#receipt-full').getAttribute('href')) as string;
    const file = await page.request.get(full);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');
    await app.checkAccessibility(page, 'expense with a receipt');

    await page.getByRole('button', { name: 'Remove the receipt' }).click();
    await page.locator('#receipt', { hasText: 'No receipt on file.' }).waitFor();
    const groceries = (await expensesInApi()).find((e) => e.description === 'Groceries') as Expense;
    await api().get(`/v1/expenses/${groceries.id}/receipt`).set(bob.auth).expect(404);
    expect(app.problems).toEqual([]);
  });

  it('tells among the comments who changed the amount, from what to what, in the group’s currency', async () => {
    // Ported from the demo's web-client-history test.
    await openGroup();
    await addExpense(page, 'Taxi', '6.99');
    await openExpense('Taxi');
    await page.getByLabel(/^Amount/).fill('8.99');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#expense-list li', { hasText: '€8.99' }).waitFor();
    await openExpense('Taxi');
    const lines = page.locator('#comment-list li.change');
    await lines.filter({ hasText: 'amount changed from €6.99 to €8.99 by Ada' }).waitFor();
    await expect(lines.first().textContent()).resolves.toMatch(/^added by Ada/);
    await page.getByLabel('Comment', { exact: true }).fill('Airport run');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    // The comment comes after the change: one timeline, by time.
    await until(async () => {
      const texts = await page.locator('#comment-list li').allTextContents();
      expect(texts.findIndex((x) => x.includes('Airport run'))).toBeGreaterThan(
        texts.findIndex((x) => x.includes('amount changed from €6.99 to €8.99')),
      );
    });
    await app.checkAccessibility(page, 'expense with history');
    expect(app.problems).toEqual([]);
  });

  it('duplicates an expense, takes a negative amount, shows original debts, and keeps an archived group read-only', async () => {
    await openGroup();
    await addExpense(page, 'Museum', '6.00');
    await openExpense('Museum');
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.locator('#status', { hasText: 'Copied Museum' }).waitFor();
    await until(async () => {
      expect((await expensesInApi()).filter((e) => e.description === 'Museum')).toHaveLength(2);
    });

    // Income: a refund Ada got for everyone.
    await openGroup();
    await addExpense(page, 'Refund', '-12.00');
    await until(async () => {
      expect((await expensesInApi()).find((e) => e.description === 'Refund')?.amount).toBe(-1200);
    });

    // The settings: the debts as recorded, and another default currency.
    await show('/settings');
    await page.getByLabel('Simplify debts').uncheck();
    await page.getByLabel('Default currency (new expenses take it)').fill('USD');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#status', { hasText: 'Settings saved.' }).waitFor();
    await app.checkAccessibility(page, 'group settings');
    const group = (await api().get(`/v1/groups/${groupId}`).set(bob.auth).expect(200)).body;
    expect([group.simplifyDebts, group.currency]).toEqual([false, 'USD']);
    await openGroup();
    await page.locator('#transfers[data-debts=original]').waitFor();
    await page.locator('#add-expense').click();
    await page.getByLabel('Amount (USD)').waitFor();

    // Someone archives the group while Ada edits: her save is refused, and she is told why.
    await openExpense('Refund');
    await api().post(`/v1/groups/${groupId}/archive`).set(bob.auth).expect(200);
    await page.getByLabel('Description').fill('Refund (museum)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#status.error', { hasText: 'This group is archived' }).waitFor();
    await openGroup();
    await page.locator('#group-name .badge', { hasText: 'archived' }).waitFor();
    await page.locator('#archived-note').waitFor();
    expect(await page.locator('#add-expense').count()).toBe(0);
    await app.checkAccessibility(page, 'archived group');
    expect((await expensesInApi()).map((e) => e.description)).not.toContain('Refund (museum)');
    // The groups list shows the archived ones alone, or leaves them out (`?archived=`).
    await page.goto(`${app.t.url}/#/`);
    await page.getByLabel('Show').selectOption('archived');
    await page.locator('#group-list li', { hasText: 'Money' }).waitFor();
    await page.getByLabel('Show').selectOption('active');
    await page.locator('#group-list li', { hasText: 'Money' }).waitFor({ state: 'detached' });
    await app.checkAccessibility(page, 'groups, active only');

    // Unarchived from its settings; the settings back as they were.
    await show('/settings');
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await page.locator('#status', { hasText: 'The group is active again.' }).waitFor();
    await page.getByLabel('Simplify debts').check();
    await page.getByLabel('Default currency (new expenses take it)').fill('EUR');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#status', { hasText: 'Settings saved.' }).waitFor();
    const after = (await api().get(`/v1/groups/${groupId}`).set(bob.auth).expect(200)).body;
    expect([after.archivedAt, after.simplifyDebts, after.currency]).toEqual([null, true, 'EUR']);
    expect(app.problems).toEqual([]);
  });

  it('schedules a recurring expense (its first one made at once), lists it, and stops it', async () => {
    await show('/recurring');
    await page.getByLabel('Description').fill('Rent');
    await page.getByLabel('Amount (EUR)').fill('900');
    await page.getByLabel('Repeats').selectOption('month');
    await app.checkAccessibility(page, 'recurring');
    await page.getByRole('button', { name: 'Schedule' }).click();
    const item = page.locator('#recurring-list li', { hasText: 'Rent' });
    await item.filter({ hasText: 'next on' }).waitFor();
    const recurringId = (await item.getAttribute('data-recurring')) as string;
    // Its first date is today: the occurrence is an ordinary expense already.
    await until(async () => {
      const rent = (await expensesInApi()).find((e) => e.description === 'Rent');
      expect(rent).toMatchObject({ amount: 90000, recurringId });
    });
    await item.getByRole('button', { name: 'Stop Rent' }).click();
    await page.locator('#status', { hasText: 'Stopped Rent' }).waitFor();
    await api().get(`/v1/recurring/${recurringId}`).set(bob.auth).expect(404);
    expect(app.problems).toEqual([]);
    expect(app.violations).toEqual([]);
  });
});
