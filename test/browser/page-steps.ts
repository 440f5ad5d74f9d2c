/** Steps the web client's browser tests share, taken on the page as a user would. */
import type { Page } from 'playwright-core';
import { uniqueEmail } from '../support/test-server';

/** Registers `name` (a fresh email) through the page's sign-up form and waits for the live connection. */
export async function signUpOnPage(page: Page, name: string): Promise<void> {
  const form = page.locator('#auth-form');
  await form.locator('input[name=name]').fill(name);
  await form.locator('input[name=email]').fill(uniqueEmail(name.toLowerCase()));
  await form.locator('input[name=password]').fill('correct horse battery');
  await form.locator('button[value=register]').click();
  await page.locator('#live', { hasText: 'open' }).waitFor();
}
