// Signing up, in and out, and where the user is signed in (API.md §2).
import { listMyActivity } from './activity.js';
import { tally, whenSessionExpires } from './client.js';
import { $, describe, element, handle, say } from './dom.js';
import { closeGroup, listGroups } from './groups.js';
import { loadNotificationSettings, openLinkedGroup } from './notifications.js';

/** The SDK's RealtimeClient of the session: one WebSocket for every open group. */
export let realtime;
/** The user signed in. */
export let me;

whenSessionExpires(() => signedOut('Your session expired: log in again.'));

/** Who is signed in, and whether their address still waits to be confirmed (API.md §2.5). */
export function showMe(user) {
  me = user;
  $('who-name').textContent = `${me.name} <${me.email}>`;
  $('verify-email').textContent = me.email;
  $('verify-box').hidden = me.emailVerified !== false;
}

async function signedIn(session) {
  showMe(session.user);
  $('who').hidden = false;
  $('auth').hidden = true;
  $('groups').hidden = false;
  realtime = tally.realtime();
  realtime.on('state', (state) => {
    $('live').textContent = state;
  });
  realtime.on('error', (error) => say(`Live updates: ${error.message}`, true));
  // Activity across every group (API.md §8a): a notice per new event, then the feed's first page.
  realtime.on('activity', () => void listMyActivity().catch(() => {}));
  realtime.followActivity();
  realtime.connect();
  await Promise.all([listGroups(), listMyActivity(), listSessions(), loadNotificationSettings()]);
  await openLinkedGroup();
  say(`Welcome, ${me.name}.`);
}

export function signedOut(message) {
  closeGroup();
  realtime?.close();
  realtime = undefined;
  me = undefined;
  $('who').hidden = true;
  $('auth').hidden = false;
  $('groups').hidden = true;
  say(message);
}

$('auth-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    const session =
      event.submitter?.value === 'register'
        ? await tally.auth.register({ email, password, name: String(form.get('name')).trim() || email })
        : await tally.auth.login({ email, password });
    event.target.reset();
    await signedIn(session);
  }),
);

/** Signs this session (or every one) out on the server; the tokens here are forgotten whatever it answers. */
async function signOut(everywhere) {
  const failure = await (everywhere ? tally.auth.logoutAll() : tally.auth.logout()).then(
    () => undefined,
    (error) => error,
  );
  const done = everywhere ? 'Signed out everywhere.' : 'Signed out.';
  signedOut(failure ? `Signed out on this device; the server did not confirm: ${describe(failure)}` : done);
}

$('sign-out').addEventListener(
  'click',
  handle(() => signOut(false)),
);

// ---- sessions: where the user is signed in (API.md §2) ----------------------------------------------
async function listSessions() {
  const sessions = await tally.sessions.list();
  $('sessions').replaceChildren(
    ...sessions.map((s) => {
      const item = element(
        'li',
        `${s.userAgent ?? 'Unknown device'} · ${s.ip ?? 'unknown IP'} · last used ${new Date(s.lastUsedAt).toLocaleString()}`,
      );
      item.dataset.sessionId = s.id;
      if (s.current) item.append(' ', element('strong', '(this device)'));
      const button = element('button', 'Sign out', { type: 'button' });
      button.addEventListener(
        'click',
        handle(async () => {
          if (s.current) return signOut(false);
          await tally.sessions.revoke(s.id);
          await listSessions();
          say('That device is signed out.');
        }),
      );
      item.append(' ', button);
      return item;
    }),
  );
}

$('refresh-sessions').addEventListener('click', handle(listSessions));

$('sign-out-everywhere').addEventListener(
  'click',
  handle(async () => {
    if (!window.confirm('Sign out on every device, this one included?')) return;
    await signOut(true);
  }),
);
