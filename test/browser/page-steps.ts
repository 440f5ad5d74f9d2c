/** Steps the web client's browser tests share, taken on the page as a user would. */
import type { Page } from 'playwright-core';
import { uniqueEmail } from '../support/test-server';

/** The password every page-made account has. */
export const PASSWORD = 'correct horse battery';

/**
 * Registers `name` (with `email`, a fresh one by default) through the page's sign-up form, and waits
 * until the page shows them signed in with its live connection open. Returns the email.
 */
export async function signUpOnPage(
  page: Page,
  name: string,
  email = uniqueEmail(name.toLowerCase()),
): Promise<string> {
  const form = page.locator('#auth-form');
  await form.locator('input[name=name]').fill(name);
  await form.locator('input[name=email]').fill(email);
  await form.locator('input[name=password]').fill(PASSWORD);
  await form.locator('button[value=register]').click();
  await page.locator('#who-name', { hasText: name }).waitFor();
  await page.locator('#live', { hasText: 'open' }).waitFor();
  return email;
}

/** Collects into `problems` what the page reports going wrong: its uncaught errors, console errors and warnings. */
export function watchProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
}
