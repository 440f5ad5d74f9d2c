// The app's one SDK client, its session kept across reloads, the outbox in IndexedDB, the live
// connection, and a small store the screens read (who is signed in, sync and live state, unread).
import { useEffect, useState } from 'preact/hooks';
import { indexedDbOutbox, ProblemError, TallyClient } from '../../../../../packages/client/src/index';
import { t } from './messages.js';

const TOKENS_KEY = 'tally.next.tokens';

/**
 * The session's tokens in localStorage, so a reload stays signed in (docs/DECISIONS.md: readable by
 * any script of this origin, which the CSP limits to the app's own; signing out, or any device in
 * the sessions list, revokes them on the server).
 */
const tokenStore = {
  get: () => {
    const stored = localStorage.getItem(TOKENS_KEY);
    try {
      return stored ? JSON.parse(stored) : undefined;
    } catch {
      // Not ours or damaged: signed out, rather than an app that cannot start.
      return undefined;
    }
  },
  set: (tokens) => {
    if (tokens) localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
    else localStorage.removeItem(TOKENS_KEY);
  },
};

export const tally = new TallyClient({
  baseUrl: window.location.origin,
  tokenStore,
  // Writes wait here (IndexedDB) while there is no network, then go once each (their keys).
  outbox: {
    storage: indexedDbOutbox({ name: 'tally-next-outbox' }),
    autoStart: false,
    // A final refusal (a split that does not add up, a member who left): said, not lost silently.
    onRejected: ({ error }) => say(t('rejected', describe(error)), true),
  },
  onSessionExpired: () => signedOut(t('sessionExpired')),
});

// ---- the store -------------------------------------------------------------------------------------
const listeners = new Set();
/** What every screen may read: `me`, `live`, `pending`, `unread`, `status`, `ready`. */
export const store = {
  me: undefined,
  live: 'idle',
  pending: 0,
  unread: { unread: 0, unreadCapped: false },
  status: { text: '', error: false },
  ready: false,
};
export function update(patch) {
  Object.assign(store, patch);
  for (const listener of listeners) listener();
}
/** The store, re-rendering the component on every change. */
export function useStore() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    listener(); // a change between the first render and this effect
    return () => listeners.delete(listener);
  }, []);
  return store;
}

let sayTimer;
/** Shows a message; a success leaves after a few seconds, an error stays until the next message. */
export function say(text, error = false) {
  clearTimeout(sayTimer);
  update({ status: { text, error } });
  if (!error) sayTimer = setTimeout(() => update({ status: { text: '', error: false } }), 6000);
}
export function describe(error) {
  // A write to an archived group (409): said plainly, with what to do.
  if (error?.code === 'group_archived') return t('groupArchived');
  const fields = (error?.errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; ');
  return (error?.problem?.detail || error?.message || String(error)) + (fields ? ` (${fields})` : '');
}
/** Runs an action of the page, showing its failure instead of losing it. */
export function attempt(action) {
  return (event) => {
    event?.preventDefault?.();
    Promise.resolve()
      .then(() => action(event))
      .catch((error) => say(describe(error), true));
  };
}

// ---- live and outbox -------------------------------------------------------------------------------
/** The session's RealtimeClient: one WebSocket for every open group and the activity feed. */
export let realtime;

const countPending = () => update({ pending: tally.outbox.pending().length });
for (const type of ['settled', 'idle', 'retry', 'paused']) tally.outbox.on(type, countPending);

/** After an outbox write: the count now. */
export const wrote = countPending;

export async function refreshUnread() {
  const page = await tally.activity.list({ limit: 1 });
  update({ unread: { unread: page.unread, unreadCapped: page.unreadCapped } });
}

async function startSession(me) {
  localStorage.setItem('tally.next.cache.me', JSON.stringify(me));
  update({ me });
  realtime = tally.realtime();
  realtime.on('state', (state) => update({ live: state }));
  realtime.on('activity', () => void refreshUnread().catch(() => {}));
  tally.outbox.attach(realtime);
  realtime.followActivity();
  realtime.connect();
  await tally.outbox.start();
  countPending();
  refreshUnread().catch(() => {});
}

/** At load: the session a reload kept (offline too: the user as last read). */
export async function resume() {
  if (!(await tally.auth.isSignedIn())) return update({ ready: true });
  const me = await cached('me', () => tally.auth.me());
  if (store.ready && !store.me) return; // signed out meanwhile (the refresh was refused)
  if (!navigator.onLine) say(t('offlineShell'));
  await startSession(me);
  update({ ready: true });
}

export async function signIn(session) {
  await startSession(session.user);
  say(t('welcome', session.user.name));
}

export function signedOut(message) {
  realtime?.close();
  realtime = undefined;
  for (const key of Object.keys(localStorage))
    if (key.startsWith('tally.next.')) localStorage.removeItem(key);
  tally.outbox.stop().catch(() => {});
  update({ me: undefined, live: 'idle', pending: 0, ready: true });
  say(message);
  window.location.hash = '#/';
}

/** Signs this session (or every one) out; the tokens here are forgotten whatever the server says. */
export async function signOut(everywhere = false) {
  // Writes not sent yet belong to this account: never sent later under another one.
  const unsent = tally.outbox.pending();
  if (unsent.length > 0) {
    if (!window.confirm(t('signOutPending', unsent.length))) return;
    for (const entry of unsent) await tally.outbox.discard(entry.id);
  }
  await (everywhere ? tally.auth.logoutAll() : tally.auth.logout()).catch(() => {});
  signedOut(t('signedOut'));
}

/**
 * A read that works offline: the answer is kept on the device (localStorage, under `key`), and
 * without a network the copy last read is used instead, at once (the SDK would retry first).
 */
export async function cached(key, read) {
  const storageKey = `tally.next.cache.${key}`;
  const stored = localStorage.getItem(storageKey);
  if (!navigator.onLine && stored) return JSON.parse(stored);
  try {
    const answer = await read();
    localStorage.setItem(storageKey, JSON.stringify(answer));
    return answer;
  } catch (error) {
    if (stored && !(error instanceof ProblemError)) return JSON.parse(stored);
    throw error;
  }
}

/** Saves `text` as a file through a link to a blob (nothing leaves the device). */
export function saveFile(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
