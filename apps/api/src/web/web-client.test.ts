import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { APP_MODULES, SDK_BUNDLE_PATH, WEB_CSP, webClientAvailable, webClientRoutes } from './web-client';

/** The web client's middleware alone; what it passes on gets 418, so passing on is visible. */
function app() {
  const a = express();
  a.use(webClientRoutes());
  a.use((_req, res) => {
    res.status(418).send('passed on');
  });
  return a;
}

describe('the web client middleware (run from the sources, as npm start does)', () => {
  const web = app();

  it('is available here: the sources and esbuild are at hand', () => {
    expect(webClientAvailable()).toBe(true);
  });

  it('serves the page at / with a policy that allows only its own origin', async () => {
    const res = await request(web).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(WEB_CSP);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('<script type="module" src="/web/app.js"></script>');
    const head = await request(web).head('/');
    expect(head.status).toBe(200);
  });

  it('serves the entry module and every module of app/, which import only each other and the SDK', async () => {
    /** What a module imports: its specifiers (`import './x.js'`, `… from './x.js'`). */
    const importsOf = (code: string) =>
      [...code.matchAll(/(?:^import|\bfrom) '([^']+)';$/gm)].map(([, specifier]) => specifier as string);
    const entry = await request(web).get('/web/app.js');
    expect(entry.status).toBe(200);
    expect(entry.headers['content-type']).toMatch(/javascript/);
    expect(entry.headers['x-content-type-options']).toBe('nosniff');
    expect(importsOf(entry.text)).not.toEqual([]);
    for (const specifier of importsOf(entry.text)) {
      expect(APP_MODULES.map((name) => `./app/${name}.js`)).toContain(specifier);
    }
    // Every file of app/ is listed, hence served: a module left out would not load in the page.
    const files = readdirSync(path.join(__dirname, 'app')).sort();
    expect(files).toEqual(APP_MODULES.map((name) => `${name}.js`).sort());
    const siblings = [...APP_MODULES.map((name) => `./${name}.js`), '../tally-client.js'];
    for (const name of APP_MODULES) {
      const res = await request(web).get(`/web/app/${name}.js`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      for (const specifier of importsOf(res.text)) expect(siblings).toContain(specifier);
    }
    expect((await request(web).get('/web/app/client.js')).text).toContain("from '../tally-client.js'");
  });

  it('bundles the SDK as one ES module with nothing left to resolve', async () => {
    const res = await request(web).get(SDK_BUNDLE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    for (const name of ['TallyClient', 'RealtimeClient', 'ProblemError']) {
      expect(res.text).toMatch(new RegExp(`^export \\{[^}]*\\b${name}\\b`, 'm'));
    }
    // No import left, and no require of anything unbundled (esbuild's `__require("…")` shim for what it
    // could not bundle). A CommonJS dependency bundled in (canonicalize) is wrapped by `__commonJS`,
    // whose inner function is also named `__require` but loads nothing.
    expect(res.text).not.toMatch(/^import /m);
    expect(res.text).not.toMatch(/__require\(\s*["'`]/);
    expect(res.text).not.toContain('typeof require');
  });

  it('serves the push service worker, allowed the scope of the whole page', async () => {
    const res = await request(web).get('/web/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['service-worker-allowed']).toBe('/');
    expect(res.text).toContain("addEventListener('push'");
  });

  it('passes on other methods and paths', async () => {
    expect((await request(web).post('/')).status).toBe(418);
    for (const path of [
      '/web/',
      '/web/app/',
      '/web/app/nothing.js',
      '/web/web-client.ts',
      '/web/index.html',
      '/__proto__',
      '/web/../package.json',
    ]) {
      expect((await request(web).get(path)).status).toBe(418);
    }
  });
});

describe('the web client’s minor units', () => {
  it('are ISO 4217’s, as the server converts with them (the domain’s table), not the browser’s display digits', async () => {
    const { minorUnitsOf } = await import('@tally/domain');
    const source = readFileSync(path.join(__dirname, 'app/money.js'), 'utf8');
    const listed = new Map<string, number>();
    for (const [, codes, digits] of source.matchAll(
      /'([A-Z ]+)'\.split\(' '\)\.map\(\(c\) => \[c, (\d)\]\)/g,
    )) {
      for (const code of (codes as string).split(' ')) listed.set(code, Number(digits));
    }
    for (const [, code, digits] of source.matchAll(/\['([A-Z]{3})', (\d)\]/g))
      listed.set(code as string, Number(digits));
    expect(listed.get('IQD')).toBe(3);
    for (const code of Intl.supportedValuesOf('currency')) {
      const iso = minorUnitsOf(code);
      if (iso === undefined) continue;
      expect({ code, digits: listed.get(code) ?? 2 }).toEqual({ code, digits: iso });
    }
  });
});
