/**
 * Headless Chromium (Debian's `chromium` package) driven by playwright-core, for the browser tests.
 * No browser is downloaded: a missing Chromium fails the test with what to install.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Chromium = { context: BrowserContext; close(): Promise<void> };

function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: the browser tests need Debian's chromium package ` +
        '(apt-get install chromium; .ci/run installs it when missing), or CHROMIUM_PATH set to a Chromium binary',
    );
  }
}

/** A fresh headless Chromium with its own throwaway profile. */
export async function launchChromium(): Promise<Chromium> {
  assertChromium();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'tally-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh headless Chromium whose contexts (`browser.newContext()`) share nothing, like two people
 * on two machines. Close it with `browser.close()`.
 */
export async function launchChromiumBrowser(): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}
