// The web client's service worker (API.md §13.2): shows the pushes Tally sends, and opens their deep
// link when one is clicked. The payload is what the server encrypted for this browser (RFC 8291),
// decrypted by the browser: { id, tag, title, body, url }. The tag replaces a copy of the same
// notification sent again (at-least-once delivery), so the user sees it once.

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
