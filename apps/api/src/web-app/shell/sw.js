// The web app's service worker (served at /app/sw.js, scope /): keeps the app shell for use with no
// network, and shows the pushes Tally sends (API.md §13.2).
// Network first for the shell (a new version shows as soon as it is served), the cached copy when the
// network fails. Only the page `/` and the files under /app/ are touched: API requests (/v1) never
// are, and offline writes wait in the SDK's IndexedDB outbox, not here. The version is written in
// when served: a new app is a new worker and cache.
const VERSION = '__VERSION__';
const CACHE = `tally-app-${VERSION}`;
const SHELL = [
  '/',
  '/app/app.js',
  '/app/style.css',
  '/app/manifest.webmanifest',
  '/app/icon.svg',
  '/app/icon-192.png',
  '/app/icon-512.png',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith('tally-') && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  // Every page of the app is the one shell (its screens are in the URL's hash).
  let key;
  if (url.pathname === '/') key = '/';
  else if (url.pathname.startsWith('/app/')) key = url.pathname;
  else return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
        }
        return response;
      })
      .catch(() => caches.match(key).then((cached) => cached ?? Response.error())),
  );
});

// A push is what the server encrypted for this browser (RFC 8291), decrypted by the browser:
// { id, tag, title, body, url }. The tag replaces a copy of the same notification sent again
// (at-least-once delivery), so the user sees it once.
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: 'Tally', body: event.data ? event.data.text() : '' };
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'Tally';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      data: { url: typeof message.url === 'string' ? message.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/', self.location.origin);
  // Only this origin's pages: a link elsewhere opens the app's start page instead.
  const url = target.origin === self.location.origin ? target.href : self.location.origin;
  event.waitUntil(self.clients.openWindow(url));
});
