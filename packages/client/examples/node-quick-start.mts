import { fileOutbox, TallyClient } from '@tally/client';
import WebSocket from 'ws';

const baseUrl = process.env.TALLY_URL ?? 'http://localhost:3000';
const password = 'correct horse battery staple';

// Ada's client. Its money writes go through an outbox kept in a file, so they survive a crash.
const ada = new TallyClient({ baseUrl, outbox: { storage: fileOutbox('tally-outbox.json') } });
// register (and login) store the session in the client; later calls are authenticated.
const { user: me } = await ada.auth.register({
  email: `ada.${Date.now()}@example.com`,
  name: 'Ada',
  password,
});

// Bob signs up on his own device (here, a second client).
const bob = new TallyClient({ baseUrl });
const { user: friend } = await bob.auth.register({
  email: `bob.${Date.now()}@example.com`,
  name: 'Bob',
  password,
});

const group = await ada.groups.create({ name: 'Goa trip', currency: 'INR' });
await ada.groups.addMember(group.id, { email: friend.email });

// Live events. Awaiting `confirmed` waits for the server's confirmation: every write from now on
// is delivered, even without `afterSeq`.
const realtime = ada.realtime({ WebSocket });
let liveBalancesSeen: () => void = () => {};
const liveBalances = new Promise<void>((resolve) => {
  liveBalancesSeen = resolve;
});
const subscription = await realtime.subscribe(group.id, {
  onEvent: (event) => console.log(`live: #${event.seq} ${event.type}`),
  onBalances: ({ currencies }) => {
    console.log('live balances:', JSON.stringify(currencies[0]?.members));
    liveBalancesSeen();
  },
}).confirmed;

// A direct write. The client makes the Idempotency-Key and reuses it for every retry.
const dinner = await ada.expenses.create({
  groupId: group.id,
  description: 'Dinner',
  amount: 120000, // minor units: ₹1,200.00
  paidBy: me.id,
  split: { type: 'equal', between: [me.id, friend.id] },
});
console.log(`created ${dinner.id}`);

// A write through the outbox: on disk first, then sent (and resent after a restart) until answered.
await ada.outbox.ready; // what an earlier run left is loaded: pending() lists it
const { expenseId } = await ada.outbox.createExpense({
  groupId: group.id,
  description: 'Taxi',
  amount: 30000,
  paidBy: friend.id,
  split: { type: 'exact', between: [{ userId: me.id, amount: 30000 }] },
});
console.log(`stored ${expenseId}; pending: ${ada.outbox.pending().length}`);
await ada.outbox.whenIdle();

const balances = await ada.groups.balances(group.id);
for (const { currency, members, simplified } of balances.currencies) {
  // members: each one's net (+ is owed money); simplified: the fewest payments that settle up.
  console.log(currency, JSON.stringify(members), JSON.stringify(simplified));
}

await liveBalances;
subscription.unsubscribe();
realtime.close();
await ada.outbox.stop();
