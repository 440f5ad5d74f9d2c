// The Tally web app at /: Preact with htm templates on the TypeScript SDK. Screens by the
// URL's hash; the session survives a reload; writes go through the SDK's outbox (IndexedDB).
import { html } from 'htm/preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AccountScreen } from './account.js';
import { ActivityScreen } from './activity.js';
import { CategoriesScreen } from './categories.js';
import { ExpenseScreen } from './expense.js';
import { GroupScreen } from './group.js';
import { GroupSettingsScreen } from './group-settings.js';
import { GroupsScreen, JoinScreen } from './groups.js';
import { followLink } from './links.js';
import { t } from './messages.js';
import { RecurringScreen } from './recurring.js';
import { attempt, resume, say, signIn, tally, update, useStore } from './session.js';
import { StatsScreen } from './stats.js';
import { publicScreen, toolScreen } from './tools.js';
import { useRoute } from './ui.js';

function Header() {
  const { me, live, pending, unread } = useStore();
  return html`<header class="top">
    <a class="brand" href="#/">${t('appName')}</a>
    ${
      me &&
      html`<span class="sync" id="sync" role="status">${pending > 0 ? t('waitingToSync', pending) : t('allSynced')}</span>
        <span class="sync" id="live">${t(`live.${live}`)}</span>
        <nav aria-label=${t('mainNav')}>
          <a href="#/">${t('groups')}</a>
          <a href="#/activity">${t('activity')}${
            unread.unread > 0
              ? html` <span class="badge" id="unread">${unread.unread}${unread.unreadCapped ? '+' : ''}</span>`
              : ''
          }</a>
          <a href="#/account" id="account-link">${t('account')}</a>
        </nav>`
    }
  </header>`;
}

function AuthScreen() {
  const [mode, setMode] = useState('signIn');
  const submit = attempt(async (event) => {
    const form = new FormData(event.target);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    const session =
      mode === 'signUp'
        ? await tally.auth.register({ email, password, name: String(form.get('name')).trim() || email })
        : await tally.auth.login({ email, password });
    await signIn(session);
  });
  return html`<section>
    <h1>${mode === 'signUp' ? t('signUp') : t('signIn')}</h1>
    <form id="auth-form" onSubmit=${submit}>
      ${mode === 'signUp' && html`<label>${t('name')} <input name="name" autocomplete="name" maxlength="100" required /></label>`}
      <label>${t('email')} <input name="email" type="email" required autocomplete="email" /></label>
      <label>${t('password')}
        <input name="password" type="password" required minlength="8"
          autocomplete=${mode === 'signUp' ? 'new-password' : 'current-password'} /></label>
      <div class="row">
        <button class="primary" type="submit">${mode === 'signUp' ? t('signUp') : t('signIn')}</button>
        <button type="button" class="link" onClick=${() => setMode(mode === 'signUp' ? 'signIn' : 'signUp')}>
          ${mode === 'signUp' ? t('haveAccount') : t('newHere')}
        </button>
        <a href="#/forgot">${t('mail.forgot')}</a>
      </div>
    </form>
  </section>`;
}

function Screen({ route }) {
  const [first, id, second, third] = route;
  const tool = toolScreen(route) ?? publicScreen(route);
  if (tool) return tool;
  if (first === 'join' && id) return html`<${JoinScreen} code=${id} />`;
  if (first === 'activity') return html`<${ActivityScreen} />`;
  if (first === 'account') return html`<${AccountScreen} />`;
  if (first === 'g' && id && second === 'add')
    return html`<${ExpenseScreen} groupId=${id} key=${`add-${id}`} />`;
  if (first === 'g' && id && second === 'e' && third)
    return html`<${ExpenseScreen} groupId=${id} expenseId=${third} key=${third} />`;
  const GROUP_SCREENS = {
    stats: StatsScreen,
    categories: CategoriesScreen,
    recurring: RecurringScreen,
    settings: GroupSettingsScreen,
  };
  if (first === 'g' && id && GROUP_SCREENS[second])
    return html`<${GROUP_SCREENS[second]} groupId=${id} key=${`${second}-${id}`} />`;
  if (first === 'g' && id) return html`<${GroupScreen} groupId=${id} key=${id} />`;
  return html`<${GroupsScreen} />`;
}

function App() {
  const { me, ready, status } = useStore();
  const route = useRoute();
  useEffect(() => {
    document.title = me ? `${t('appName')} · ${me.name}` : t('appName');
  }, [me]);
  return html`<${Header} />
    <main id="main">
      ${!ready ? html`<p>${t('loading')}</p>` : me ? html`<${Screen} route=${route} />` : (publicScreen(route) ?? html`<${AuthScreen} />`)}
    </main>
    <p class=${`status${status.error ? ' error' : ''}`} id="status" role="status" aria-live="polite">${status.text}</p>`;
}

followLink();
// A mailed link opened in a tab that already shows the app changes only the hash: followed too
// (before the route reads it: this listener is the first).
window.addEventListener('hashchange', followLink);
render(html`<${App} />`, document.getElementById('app'));
resume().catch((error) => {
  update({ ready: true });
  say(error?.message ?? String(error), true);
});

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/app/sw.js', { scope: '/' }).catch(() => {});
}
