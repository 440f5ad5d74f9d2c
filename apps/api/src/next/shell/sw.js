// The web app's service worker (scope /next/): keeps the app shell for use with no network.
// Network first for the shell (a new version shows as soon as it is served), the cached copy when the
// network fails. API requests (/v1) are never touched: offline writes wait in the SDK's IndexedDB
// outbox, not here. The version is written in when served: a new app is a new worker and cache.
const VERSION = '__VERSION__';
const CACHE = `tally-next-${VERSION}`;
const SHELL = [
  '/next/',
  '/next/app.js',
  '/next/style.css',
  '/next/manifest.webmanifest',
  '/next/icon.svg',
  '/next/icon-192.png',
  '/next/icon-512.png',
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
          keys
            .filter((key) => key.startsWith('tally-next-') && key !== CACHE)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith('/next/'))
    return;
  // Every page of the app is the one shell (its screens are in the URL's hash).
  const key = request.mode === 'navigate' ? '/next/' : url.pathname;
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

// Push (API.md §13.2): the payload the browser decrypted, { id, tag, title, body, url }, shown as a
// notification (the tag replaces a copy sent again); a click opens its deep link, on this origin only.
const text = (value, fallback) => (typeof value === 'string' && value ? value : fallback);

self.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data?.json() ?? {};
  } catch {
    message = { body: event.data?.text() };
  }
  event.waitUntil(
    self.registration.showNotification(text(message.title, 'Tally'), {
      body: text(message.body, ''),
      tag: text(message.tag, undefined),
      data: { url: text(message.url, '/next/') },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? '/next/', self.location.origin);
  event.waitUntil(self.clients.openWindow(target.origin === self.location.origin ? target.href : '/next/'));
});
