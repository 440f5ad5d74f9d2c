import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { BROWSER_BUNDLE, esbuildAvailable } from '../web/browser-sdk';

/**
 * The web app at `/` (docs/OPERATIONS.md#the-web-app): Preact with htm templates, on the
 * TypeScript SDK, installable (a manifest) and offline (a service worker scoped to `/`). The page is
 * `/`; its files are under `/app/`.
 *
 * Two ways to have its files:
 * - **from the sources** (`npm start`, the tests): the shell files of `shell/` as they are, and the
 *   app (`app/main.js` with the SDK, Preact, htm and uqr) bundled by esbuild in memory on the first
 *   request, so the page always runs the sources the server runs;
 * - **prebuilt** (`npm run build` writes them to `dist/web-app/`, beside `dist/server.js`): the
 *   production bundle has no esbuild and no sources, and serves these files.
 */

/** The shell's files, as they are served (and precached by the service worker). */
export const SHELL_FILES = [
  'index.html',
  'style.css',
  'sw.js',
  'manifest.webmanifest',
  'icon.svg',
  'icon-192.png',
  'icon-512.png',
] as const;
/** The app's bundle, beside the shell files. */
export const APP_BUNDLE = 'app.js';
/** Where the app's files are served (the page itself is `/`, the service worker's scope). */
export const APP_PREFIX = '/app/';
/** Where the app was served before it took `/`: redirected there (invite links keep their `#/join/…`). */
const OLD_PREFIX = '/next';

const SOURCE_DIR = __dirname;
const SHELL_DIR = path.join(SOURCE_DIR, 'shell');
const APP_ENTRY = path.join(SOURCE_DIR, 'app', 'main.js');
/** Where `npm run build` puts the files: dist/web-app, beside the bundled dist/server.js (its __dirname). */
export const PREBUILT_DIR = path.join(__dirname, 'web-app');

/**
 * Only this origin: its scripts, styles, images, manifest, service worker and API (fetch and the
 * WebSocket); no frames, no form posts, nothing inline.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The app (`app/main.js` and all it imports, the SDK included) as one minified ES module. */
export async function buildWebApp(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: [APP_ENTRY],
    outfile: APP_BUNDLE,
    minify: true,
    banner: { js: '// Tally web app (apps/api/src/web-app), with Preact, htm, uqr and @tally/client' },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output for the web app');
  return output.text;
}

/**
 * The service worker with the version of what it precaches written in: a new app is a new worker,
 * which replaces the old cache. `files` are the shell's and the app's contents.
 */
export function versionedServiceWorker(source: string, files: Iterable<string | Buffer>): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file);
  return source.replace('__VERSION__', hash.digest('hex').slice(0, 16));
}

type Files = Map<string, Buffer>;

/** Every file of the app, by name, from the sources (built now) or from dist/web-app. */
export async function loadAppFiles(): Promise<Files | undefined> {
  if (existsSync(path.join(SHELL_DIR, 'index.html')) && existsSync(APP_ENTRY) && esbuildAvailable()) {
    const files: Files = new Map(SHELL_FILES.map((name) => [name, readFileSync(path.join(SHELL_DIR, name))]));
    files.set(APP_BUNDLE, Buffer.from(await buildWebApp()));
    const others = [...files].filter(([name]) => name !== 'sw.js').map(([, content]) => content);
    files.set('sw.js', Buffer.from(versionedServiceWorker(String(files.get('sw.js')), others)));
    return files;
  }
  if (existsSync(path.join(PREBUILT_DIR, APP_BUNDLE))) {
    return new Map(
      [...SHELL_FILES, APP_BUNDLE].map((name) => [name, readFileSync(path.join(PREBUILT_DIR, name))]),
    );
  }
  return undefined;
}

/**
 * `GET /` and the app's files under `/app/`: a middleware, not routes (not API operations). Files are
 * loaded (and the app built) on the first request; where there are neither sources nor a prebuilt
 * app, `/` is `404` like any unknown path.
 */
export function webAppRoutes(): RequestHandler {
  let files: Promise<Files | undefined> | undefined;
  const gzipped = new Map<string, Buffer>();
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === OLD_PREFIX || req.path === `${OLD_PREFIX}/`) return res.redirect(301, '/');
    let name: string;
    if (req.path === '/') name = 'index.html';
    else if (req.path.startsWith(APP_PREFIX)) name = req.path.slice(APP_PREFIX.length);
    else return next();
    if (name !== APP_BUNDLE && !(SHELL_FILES as readonly string[]).includes(name)) return next();
    files ??= loadAppFiles();
    files.then(
      (loaded) => {
        const content = loaded?.get(name);
        if (!content) return next();
        if (name === 'index.html') {
          res.setHeader('Content-Security-Policy', APP_CSP);
          res.setHeader('Referrer-Policy', 'no-referrer');
        }
        res.setHeader('X-Content-Type-Options', 'nosniff');
        // The worker is under /app/ with the other files, and controls the whole origin's pages.
        if (name === 'sw.js') res.setHeader('Service-Worker-Allowed', '/');
        // The service worker keeps the offline copy; the network is asked first (sw.js).
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('Vary', 'Accept-Encoding');
        res.type(TYPES[path.extname(name)] ?? 'application/octet-stream');
        // Gzipped once per file (the bundle: ≈ 178 KB → ≈ 55 KB), for a phone on a slow network.
        if (!name.endsWith('.png') && req.acceptsEncodings('gzip') === 'gzip') {
          const zipped = gzipped.get(name) ?? gzipSync(content, { level: 9 });
          gzipped.set(name, zipped);
          res.setHeader('Content-Encoding', 'gzip');
          return res.send(zipped);
        }
        res.send(content);
      },
      (error: unknown) => {
        files = undefined; // try again on the next request (the sources may have been fixed)
        gzipped.clear();
        next(error);
      },
    );
  };
}
