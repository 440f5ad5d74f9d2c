import { indexedDbOutbox, TallyClient } from '@tally/client';

// In a browser: IndexedDB keeps the outbox, the global WebSocket carries live events, and the
// outbox retries by itself when the `online` event fires.
const tally = new TallyClient({
  baseUrl: 'https://api.example.com',
  // Signed out at first: don't start draining until there is a session (see "Readiness").
  outbox: { storage: indexedDbOutbox({ name: 'tally-outbox' }), autoStart: false },
});

export async function signIn(email: string, password: string): Promise<void> {
  const { user } = await tally.auth.login({ email, password });
  await tally.outbox.start(); // loads what an earlier visit left, then drains it
  const groups = await tally.groups.list();
  const group = groups.data[0];
  if (!group) return;

  const realtime = tally.realtime(); // globalThis.WebSocket
  await realtime.subscribe(group.id, {
    onEvent: (event) => {
      if (event.type === 'expense.created') tally.outbox.observe(event);
    },
    onBalances: ({ currencies }) => console.table(currencies[0]?.members),
  }).confirmed;

  await tally.outbox.createExpense({
    groupId: group.id,
    description: 'Coffee',
    amount: 450,
    paidBy: user.id,
    split: { type: 'shares', between: [{ userId: user.id, shares: 1 }] },
  });
  console.log('not sent yet:', tally.outbox.pending(group.id).length);
}

tally.outbox.on('paused', (paused) => {
  // A union on `reason`: for 'unauthenticated', `paused.error` is an UnauthenticatedError.
  if (paused.reason === 'unauthenticated') {
    console.warn(paused.error.code, paused.error.requestId);
    location.assign('/sign-in');
  }
});
