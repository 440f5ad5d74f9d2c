import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';

/**
 * `GET /docs`: the OpenAPI document rendered by Swagger UI, from the `swagger-ui-dist` npm package
 * (pinned to an exact version in package.json). Its files are served by this server from
 * node_modules, so the page works offline and fetches nothing from anywhere else; the
 * Content-Security-Policy of the page says so to the browser as well.
 */

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
export const SWAGGER_UI_VERSION = (
  JSON.parse(readFileSync(path.join(SWAGGER_UI_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

/** Where the package's files are served; the version in the path lets browsers cache them for good. */
export const DOCS_ASSETS = `/docs/assets/swagger-ui-dist@${SWAGGER_UI_VERSION}`;
/** The only files of the package that are served. */
export const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'index.css', 'favicon-32x32.png'];
/** This page's own start-up script (external, so that the policy needs no inline script). */
export const DOCS_SCRIPT_PATH = '/docs/assets/tally-docs.js';

const DOCS_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    displayRequestDuration: true,
    // nothing leaves this origin: no online validator badge, no ?url= / ?configUrl= from the address bar
    validatorUrl: null,
    queryConfigEnabled: false,
  });
});
`;

/** Only this origin's scripts, styles, images and data; no frames, forms or base URL. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and (quoted) attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

export function docsPage(specUrl: string): string {
  const url = escapeHtml(specUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tally API reference</title>
<link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css">
<link rel="stylesheet" href="${DOCS_ASSETS}/index.css">
<link rel="icon" type="image/png" href="${DOCS_ASSETS}/favicon-32x32.png">
</head>
<body>
<noscript><p>The API reference needs JavaScript. The OpenAPI document itself: <a href="${url}">${url}</a></p></noscript>
<div id="swagger-ui" data-spec-url="${url}"></div>
<script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
<script src="${DOCS_SCRIPT_PATH}"></script>
</body>
</html>
`;
}

/** `GET /docs` and the files it loads (a middleware, not routes: they are not API operations). */
export function docsRoutes(specUrl: string): Router {
  const router = express.Router();
  const page = docsPage(specUrl);
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.type('html').send(page);
  });
  const files = new Map(
    SWAGGER_UI_FILES.map((name) => [`${DOCS_ASSETS}/${name}`, path.join(SWAGGER_UI_DIR, name)]),
  );
  const assets: RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.path.startsWith('/docs/assets/'))
      return next();
    if (req.path === DOCS_SCRIPT_PATH) {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.type('js').send(DOCS_SCRIPT);
      return;
    }
    const file = files.get(req.path);
    if (!file) return next();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.sendFile(file, { immutable: true, maxAge: '365d' }, (error) => {
      if (error) next(error);
    });
  };
  router.use(assets);
  return router;
}
