// The links Tally mails and pushes (API.md §2.4, §2.5, §13): they point at the web app with a
// fragment, which never reaches a server. Each is taken out of the address bar at once (it works
// once, or should not stay in the history) and turned into its action or its screen.
import { t } from './messages.js';
import { describe, say, tally } from './session.js';

/** The token of a password-reset link, for the reset screen. */
export let resetToken;

const LINKS = [
  [
    /^#verify-email=([A-Za-z0-9_-]+)$/,
    (token) =>
      tally.auth.verifyEmail(token).then(
        () => say(t('links.verified')),
        (error) => say(t('links.broken', describe(error)), true),
      ),
  ],
  [
    /^#unsubscribe=([A-Za-z0-9_.-]+)$/,
    (token) =>
      tally.notifications.unsubscribe(token).then(
        () => say(t('links.unsubscribed')),
        (error) => say(t('links.broken', describe(error)), true),
      ),
  ],
  [
    /^#reset=([A-Za-z0-9_-]+)$/,
    (token) => {
      resetToken = token;
      return '#/reset';
    },
  ],
  [
    // A notification's deep link: the group, or the expense it is about.
    /^#group=([A-Za-z0-9_]+)(?:&record=([A-Za-z0-9_]+))?$/,
    (groupId, record) => (record?.startsWith('exp_') ? `#/g/${groupId}/e/${record}` : `#/g/${groupId}`),
  ],
];

/** At load: does what the address's link asks, and leaves the route it leads to in the hash. */
export function followLink() {
  for (const [pattern, act] of LINKS) {
    const match = pattern.exec(window.location.hash);
    if (!match) continue;
    const next = act(...match.slice(1));
    const hash = typeof next === 'string' ? next : '#/';
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}${hash}`);
    return;
  }
}
