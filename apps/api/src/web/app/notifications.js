// Notifications (API.md §13): the settings per kind and channel, push in this browser (a service
// worker, /web/sw.js), the unsubscribe link of a mail, and the deep link of a notification.
import { tally } from './client.js';
import { $, describe, element, handle, say } from './dom.js';
import { openGroup } from './groups.js';

const KINDS = [
  ['expense', 'An expense that involves me'],
  ['comment', 'A comment on something that involves me'],
  ['settlement', 'A payment to or from me'],
  ['recurring', 'A recurring expense that involves me'],
  ['inviteAccepted', 'Someone joined one of my groups'],
  ['reminder', 'A reminder to settle up'],
];

/** The settings as checkboxes: one row per kind, push and mail; the weekly digest by mail. */
function renderSettings(settings) {
  const rows = KINDS.map(([kind, label]) => {
    const row = element('tr');
    row.append(element('td', label));
    for (const channel of ['push', 'email']) {
      const box = element('input', undefined, { type: 'checkbox', name: `${kind}.${channel}` });
      box.checked = settings[kind][channel];
      const cell = element('td');
      cell.append(box);
      row.append(cell);
    }
    return row;
  });
  const digest = element('tr');
  const box = element('input', undefined, { type: 'checkbox', name: 'digest.email' });
  box.checked = settings.digest.email;
  const cell = element('td');
  cell.append(box);
  digest.append(element('td', 'The weekly digest'), element('td', '—'), cell);
  $('notification-settings').replaceChildren(...rows, digest);
}

export async function loadNotificationSettings() {
  renderSettings(await tally.notifications.getSettings());
  $('push-on').disabled = !('serviceWorker' in navigator && 'PushManager' in window);
}

$('notification-form').addEventListener(
  'submit',
  handle(async (event) => {
    const patch = {};
    for (const box of event.target.querySelectorAll('input[type=checkbox]')) {
      const [kind, channel] = box.name.split('.');
      patch[kind] = { ...patch[kind], [channel]: box.checked };
    }
    renderSettings(await tally.notifications.putSettings(patch));
    say('Notification settings saved.');
  }),
);

/** base64url → the bytes `applicationServerKey` takes. */
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

$('push-on').addEventListener(
  'click',
  handle(async () => {
    const key = await tally.push.vapidPublicKey();
    if (!key) return say('This server sends no push notifications.', true);
    if ((await Notification.requestPermission()) !== 'granted')
      return say('Notifications are blocked for this site in the browser.', true);
    await navigator.serviceWorker.register('/web/sw.js', { scope: '/' });
    const registration = await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(key),
      }));
    await tally.push.subscribe(subscription.toJSON());
    say('Push notifications are on in this browser.');
  }),
);

$('push-off').addEventListener(
  'click',
  handle(async () => {
    const registration = await navigator.serviceWorker?.getRegistration('/');
    const subscription = await registration?.pushManager.getSubscription();
    if (!subscription) return say('Push notifications are not on in this browser.');
    const known = (await tally.push.list()).find((s) => s.endpoint === subscription.endpoint);
    if (known) await tally.push.unsubscribe(known.id);
    await subscription.unsubscribe();
    say('Push notifications are off in this browser.');
  }),
);

/** A mail's unsubscribe link (`…/#unsubscribe=<token>`): no sign-in needed; the fragment never reaches a server. */
const unsubscribeToken = /^#unsubscribe=([A-Za-z0-9_.-]+)$/.exec(window.location.hash)?.[1];
if (unsubscribeToken) {
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  tally.notifications.unsubscribe(unsubscribeToken).then(
    () => say('Done: you get no more mails like that one. Change it any time in your notification settings.'),
    (error) => say(`This link does not work: ${describe(error)}`, true),
  );
}

/** A notification's deep link (`…/#group=<id>&record=<id>`): the group opens once signed in. */
const linkedGroup = /^#group=([A-Za-z0-9_]+)/.exec(window.location.hash)?.[1];

/** Opens the group a notification linked to, once (after sign-in). */
export async function openLinkedGroup() {
  if (!linkedGroup || window.location.hash === '') return;
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  await openGroup(linkedGroup);
}
