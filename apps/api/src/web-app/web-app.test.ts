import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { APP_CSP, SHELL_FILES, versionedServiceWorker, webAppRoutes } from './web-app';

/** The app's middleware alone; what it passes on gets 418, so passing on is visible. */
function app() {
  const a = express();
  a.use(webAppRoutes());
  a.use((_req, res) => {
    res.status(418).send('passed on');
  });
  return a;
}

describe('the web app middleware at / (from the sources, as npm start does)', () => {
  const web = app();

  it('serves the shell at / under the strict policy, and redirects the old /next/ there', async () => {
    const res = await request(web).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(APP_CSP);
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).not.toContain('unsafe');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('<script type="module" src="/app/app.js"></script>');
    // Nothing inline: no script or style element with content, no style attribute.
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=/);
    for (const old of ['/next', '/next/']) {
      const moved = await request(web).get(old);
      expect([old, moved.status, moved.headers.location]).toEqual([old, 301, '/']);
    }
  }, 60_000);

  it('serves the bundle (the SDK inside) and every shell file with its type', async () => {
    const bundle = await request(web).get('/app/app.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
    expect(bundle.text).toContain('Tally web app');
    expect(bundle.headers['content-encoding']).toBe('gzip');
    const types: Record<string, RegExp> = {
      'style.css': /^text\/css/,
      'manifest.webmanifest': /^application\/manifest\+json/,
      'icon.svg': /^image\/svg\+xml/,
      'icon-192.png': /^image\/png/,
      'sw.js': /^text\/javascript/,
    };
    for (const [name, type] of Object.entries(types)) {
      const res = await request(web).get(`/app/${name}`);
      expect([name, res.status, res.headers['content-type']]).toEqual([
        name,
        200,
        expect.stringMatching(type),
      ]);
    }
  }, 60_000);

  it("never sets HTML: the app's sources render every string as text", () => {
    const dir = path.join(__dirname, 'app');
    for (const name of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, name), 'utf8');
      expect([
        name,
        /dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(source),
      ]).toEqual([name, false]);
    }
  });

  it('gives a manifest scoped to / with PNG icons of 192 and 512 pixels', async () => {
    const res = await request(web).get('/app/manifest.webmanifest');
    const manifest = JSON.parse(res.text) as { scope: string; start_url: string; icons: { sizes: string }[] };
    expect(manifest.scope).toBe('/');
    expect(manifest.start_url).toBe('/');
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });

  it('writes a version into the service worker that changes with the files, and precaches every shell file', async () => {
    const res = await request(web).get('/app/sw.js');
    // Served under /app/ and allowed to control every page of the origin.
    expect(res.headers['service-worker-allowed']).toBe('/');
    expect(res.text).not.toContain('__VERSION__');
    expect(res.text).toMatch(/const VERSION = '[0-9a-f]{16}'/);
    for (const name of SHELL_FILES.filter((n) => n !== 'sw.js' && n !== 'index.html')) {
      expect(res.text).toContain(`'/app/${name}'`);
    }
    const source = readFileSync(path.join(__dirname, 'shell/sw.js'), 'utf8');
    expect(versionedServiceWorker(source, ['a'])).not.toBe(versionedServiceWorker(source, ['b']));
  });

  it('passes on anything else: other files, other methods, paths outside / and /app/', async () => {
    for (const other of [
      '/app/secret.txt',
      '/app/../package.json',
      '/app/',
      '/index.html',
      '/v1/me',
      '/nextish',
    ]) {
      expect([other, (await request(web).get(other)).status]).toEqual([other, 418]);
    }
    expect((await request(web).post('/')).status).toBe(418);
  });
});
