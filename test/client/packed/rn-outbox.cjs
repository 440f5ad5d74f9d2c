// React Native as Metro runs the app (Babel turns `import` into `require`): the durable outbox in
// AsyncStorage, here an in-memory object with AsyncStorage's getItem/setItem. A write is stored
// without being sent; a second client (the app started again) finds it in the storage and sends it.
const { asyncStorageOutbox, MemoryTokenStore, TallyClient } = require('@tally/client');

const values = new Map();
const AsyncStorage = {
  getItem: async (key) => (values.has(key) ? values.get(key) : null),
  setItem: async (key, value) => {
    values.set(key, String(value));
  },
};
const baseUrl = process.env.TALLY_URL;
const tokens = new MemoryTokenStore();
const newClient = () =>
  new TallyClient({
    baseUrl,
    tokenStore: tokens,
    outbox: { storage: asyncStorageOutbox(AsyncStorage), autoStart: false },
  });

async function main() {
  const first = newClient();
  const email = `packed.rn.${process.pid}.${Date.now()}@example.com`;
  const { user } = await first.auth.register({ email, name: 'Packed RN', password: 'correct horse battery' });
  const group = await first.groups.create({ name: 'Packed RN' });
  const body = {
    groupId: group.id,
    description: 'Dinner',
    amount: 1200,
    paidBy: user.id,
    split: { type: 'equal', between: [user.id] },
  };
  const entry = await first.outbox.createExpense(body);
  const stored = values.get('tally.outbox') ?? '';

  const second = newClient();
  await second.outbox.ready;
  const found = second.outbox
    .pending()
    .map((e) => ({ id: e.id, idempotencyKey: e.idempotencyKey, type: e.operation.type }));
  await second.outbox.start();
  await second.outbox.whenIdle();
  const expense = await second.expenses.get(entry.expenseId);
  await second.outbox.stop();
  console.log(
    JSON.stringify({
      resolved: require.resolve('@tally/client'),
      entry: { id: entry.id, idempotencyKey: entry.idempotencyKey, type: entry.operation.type },
      storedMentionsIt: stored.includes(entry.expenseId),
      found,
      pendingAfter: second.outbox.pending().length,
      expense: { id: expense.id, description: expense.description, amount: expense.amount },
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
