// People not on Tally yet, invite links and claims (API.md §3.1–§3.3).
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { listGroups, open, openGroup } from './groups.js';

$('pending-form').addEventListener(
  'submit',
  handle(async (event) => {
    const form = new FormData(event.target);
    const email = String(form.get('email')).trim();
    const name = String(form.get('name'));
    const member = await tally.groups.addMember(open.group.id, email ? { name, email } : { name });
    event.target.reset();
    say(`${member.name} was added: they are not on Tally yet.`);
  }),
);

$('make-invite').addEventListener(
  'click',
  handle(async () => {
    const invite = await tally.invites.create(open.group.id);
    const link = `${window.location.origin}/?invite=${invite.code}`;
    $('invite-link').textContent = link;
    say(`Invite link made; it works until ${new Date(invite.expiresAt).toLocaleString()}.`);
  }),
);

/** The code of a pasted invite link (`…?invite=<code>`), or the code itself. */
function inviteCodeOf(text) {
  const trimmed = text.trim();
  try {
    return new URL(trimmed).searchParams.get('invite') ?? trimmed;
  } catch {
    return trimmed;
  }
}

/** The invite being looked at: its code. */
let joining;

$('join-form').addEventListener(
  'submit',
  handle(async (event) => {
    const code = inviteCodeOf(String(new FormData(event.target).get('invite')));
    const preview = await tally.invites.preview(code);
    joining = code;
    $('join-summary').textContent = `${preview.groupName}: ${preview.memberCount} member(s)${
      preview.isMember ? ', you among them' : ''
    }.`;
    $('join-as').replaceChildren(
      element('option', 'Myself, as a new member', { value: '' }),
      ...preview.pendingMembers.map((m) =>
        element('option', `${m.name} (take over their place)`, { value: m.userId }),
      ),
    );
    $('join-preview').hidden = false;
  }),
);

$('accept-form').addEventListener(
  'submit',
  handle(async (event) => {
    const asMember = String(new FormData(event.target).get('asMember'));
    const group = await tally.invites.accept(joining, asMember ? { asMember } : {});
    $('join-preview').hidden = true;
    $('join-form').reset();
    await listGroups();
    await openGroup(group.id);
    say(`You are in ${group.name}.`);
  }),
);

// An invite link opens this page with `?invite=<code>`: ready to look at once signed in.
const invited = new URLSearchParams(window.location.search).get('invite');
if (invited) $('join-form').elements.namedItem('invite').value = invited;
/** Pending members added with this account's email: each can be claimed with one click. */
export async function listClaimable() {
  const claimable = await tally.invites.claimable();
  $('claimable').replaceChildren(
    ...claimable.map((c) => {
      const button = element('button', `Be ${c.name} in ${c.groupName}`, { type: 'button' });
      button.addEventListener(
        'click',
        handle(async () => {
          const group = await tally.invites.claim(c.groupId, c.memberId);
          await listGroups();
          await openGroup(group.id);
          say(`You took over ${c.name}'s place in ${group.name}.`);
        }),
      );
      const item = element('li');
      item.append(button);
      return item;
    }),
  );
  $('claimable-box').hidden = claimable.length === 0;
}
