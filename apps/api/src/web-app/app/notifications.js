// Notifications (API.md §13): the settings per kind and channel (push, mail) and the weekly digest;
// push in this browser (the app's service worker shows them); reminding someone who owes me.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { attempt, describe, say, tally } from './session.js';

const KINDS = ['expense', 'comment', 'settlement', 'recurring', 'inviteAccepted', 'reminder'];
const canPush = () => 'serviceWorker' in navigator && 'PushManager' in window;

/** base64url → the bytes `applicationServerKey` takes. */
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

async function pushOn() {
  const key = await tally.push.vapidPublicKey();
  if (!key) return say(t('notifications.noPush'), true);
  if ((await Notification.requestPermission()) !== 'granted') return say(t('notifications.blocked'), true);
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(key),
    }));
  await tally.push.subscribe(subscription.toJSON());
  say(t('notifications.pushOn'));
}

async function pushOff() {
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return say(t('notifications.pushWasOff'));
  const known = (await tally.push.list()).find((s) => s.endpoint === subscription.endpoint);
  if (known) await tally.push.unsubscribe(known.id);
  await subscription.unsubscribe();
  say(t('notifications.pushOff'));
}

const box = (settings, kind, channel) =>
  html`<input type="checkbox" name=${`${kind}.${channel}`} checked=${settings[kind][channel]}
    aria-label=${t('notifications.box', t(`notifications.kinds.${kind}`), t(`notifications.${channel}`))} />`;

export function NotificationsScreen() {
  const [settings, setSettings] = useState();
  useEffect(() => {
    tally.notifications.getSettings().then(setSettings, (error) => say(describe(error), true));
  }, []);
  const save = attempt(async (event) => {
    const patch = {};
    for (const input of event.target.querySelectorAll('input[type=checkbox]')) {
      const [kind, channel] = input.name.split('.');
      patch[kind] = { ...patch[kind], [channel]: input.checked };
    }
    setSettings(await tally.notifications.putSettings(patch));
    say(t('notifications.saved'));
  });
  return html`<h1>${t('tools.notifications')}</h1>
    <p><a href="#/account">${t('tools.backToAccount')}</a></p>
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">${t('notifications.tell')}</h2>
      ${
        settings
          ? html`<form id="notification-form" onSubmit=${save}>
              <table id="notification-settings">
                <thead><tr><th scope="col">${t('notifications.what')}</th><th scope="col">${t('notifications.push')}</th><th scope="col">${t('notifications.email')}</th></tr></thead>
                <tbody>
                  ${KINDS.map(
                    (kind) => html`<tr key=${kind}><th scope="row">${t(`notifications.kinds.${kind}`)}</th>
                      <td>${box(settings, kind, 'push')}</td><td>${box(settings, kind, 'email')}</td></tr>`,
                  )}
                  <tr><th scope="row">${t('notifications.kinds.digest')}</th><td>—</td><td>${box(settings, 'digest', 'email')}</td></tr>
                </tbody>
              </table>
              <button class="primary" type="submit">${t('save')}</button>
            </form>`
          : html`<p>${t('loading')}</p>`
      }
    </section>
    <section aria-labelledby="push-title">
      <h2 id="push-title">${t('notifications.thisBrowser')}</h2>
      <div class="row">
        <button type="button" id="push-on" disabled=${!canPush()} onClick=${attempt(pushOn)}>${t('notifications.turnOn')}</button>
        <button type="button" id="push-off" disabled=${!canPush()} onClick=${attempt(pushOff)}>${t('notifications.turnOff')}</button>
      </div>
    </section>`;
}

/** For a debt to me in the group's balances: remind the member (once a day, API.md §13.5). */
export function RemindButton({ groupId, userId, name }) {
  const remind = attempt(async () => {
    await tally.notifications.remind(groupId, userId);
    say(t('notifications.reminded', name));
  });
  return html`<button type="button" data-remind=${userId} onClick=${remind}>${t('notifications.remind')}</button>`;
}
