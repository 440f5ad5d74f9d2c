import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';

/**
 * The demo web client at `/` (docs/OPERATIONS.md#browsers-cors-and-the-web-client): one HTML page,
 * its script modules (app.js, the entry, and one per part of the page in app/) and a style sheet,
 * built on the browser build of the TypeScript SDK (`@tally/client`). It shows the API working; it is
 * not a product.
 *
 * The SDK is bundled for browsers by esbuild from `packages/client/src` ({@link buildBrowserSdk}),
 * in memory, on the first request for it, so the page always runs the SDK of the sources the server
 * runs. That needs the sources and esbuild (a devDependency): `npm start` has both. The production
 * bundle (dist/server.js) has neither, and there `/` stays `404` like any unknown path.
 */

/** This directory: the page's own files. */
export const WEB_DIR = __dirname;
/** The SDK's entry point, bundled for browsers. */
export const SDK_ENTRY = path.resolve(__dirname, '../../../../packages/client/src/index.ts');
/** Where the browser build of the SDK is served (an ES module). */
export const SDK_BUNDLE_PATH = '/web/tally-client.js';
/** The page's script modules beside its entry app.js: app/<name>.js, served at /web/app/<name>.js. */
export const APP_MODULES = [
  'account',
  'api-keys',
  'activity',
  'categories',
  'client',
  'dom',
  'expenses',
  'groups',
  'history',
  'imports',
  'invites',
  'money',
  'notifications',
  'rates',
  'receipts',
  'recurring',
  'session',
  'webhooks',
];
/** Served files of this directory, by path. */
const FILES = new Map<string, string>([
  ['/', 'index.html'],
  ['/web/app.js', 'app.js'],
  ...APP_MODULES.map((name) => [`/web/app/${name}.js`, `app/${name}.js`] as const),
  ['/web/style.css', 'style.css'],
  // The service worker of push notifications (API.md §13.2), allowed the scope `/` (it has no fetch
  // handler: it shows pushes only).
  ['/web/sw.js', 'sw.js'],
]);

/** Only this origin: its scripts, styles and API (fetch and the WebSocket); no frames, no form posts. */
export const WEB_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** How the SDK is bundled for browsers: one ES module, in memory (the packed-SDK test bundles alike). */
export const BROWSER_BUNDLE = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  outfile: 'tally-client.js',
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'silent',
} as const;

/**
 * The SDK (`packages/client/src/index.ts`) as one ES module for browsers (`npm run build:client`
 * writes it to a file; the web client and the browser tests serve it). Nothing of Node in it: the
 * SDK uses `fetch`, `WebSocket`, `crypto` and timers from the global scope.
 */
export async function buildBrowserSdk(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: [SDK_ENTRY],
    banner: { js: '// @tally/client, browser build (ES module) of packages/client/src/index.ts' },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output for the browser SDK');
  return output.text;
}

/** Whether the sources and esbuild are at hand (`npm start`, the tests), i.e. whether `/` is served. */
export function webClientAvailable(): boolean {
  if (!existsSync(path.join(WEB_DIR, 'index.html')) || !existsSync(SDK_ENTRY)) return false;
  return esbuildAvailable();
}

/** Whether esbuild (a devDependency) is installed: not in the production image. */
export function esbuildAvailable(): boolean {
  try {
    require.resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

/**
 * `GET /` and the files the page loads: a middleware, not routes (they are not API operations, and
 * the OpenAPI drift check lists only routes); a no-op where the web client is not available.
 */
export function webClientRoutes(): RequestHandler {
  if (!webClientAvailable()) return (_req, _res, next) => next();

  let sdk: Promise<string> | undefined;
  const serveSdk: RequestHandler = (_req, res, next) => {
    sdk ??= buildBrowserSdk();
    sdk.then(
      (code) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.type('js').send(code);
      },
      (error: unknown) => {
        sdk = undefined; // try again on the next request (the sources may have been fixed)
        next(error);
      },
    );
  };

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === SDK_BUNDLE_PATH) return serveSdk(req, res, next);
    const file = FILES.get(req.path);
    if (file === undefined) return next();
    if (file.endsWith('.html')) {
      res.setHeader('Content-Security-Policy', WEB_CSP);
      res.setHeader('Referrer-Policy', 'no-referrer');
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (file === 'sw.js') res.setHeader('Service-Worker-Allowed', '/');
    res.sendFile(
      path.join(WEB_DIR, file),
      { cacheControl: false, headers: { 'Cache-Control': 'no-cache' } },
      (error) => {
        if (error) next(error);
      },
    );
  };
}
