// A TypeScript ES module of an app that installed the tarball, type-checked (not run) with tsc under
// nodenext + verbatimModuleSyntax + strict: the types come from the package's dist/esm declarations.
import {
  type AsyncStorageLike,
  asyncStorageOutbox,
  type Expense,
  type Group,
  MemoryTokenStore,
  NotFoundError,
  TallyClient,
  TallyError,
} from '@tally/client';

const storage: AsyncStorageLike = { getItem: async () => null, setItem: async () => {} };
const tally = new TallyClient({
  baseUrl: 'https://tally.example',
  tokenStore: new MemoryTokenStore(),
  outbox: { storage: asyncStorageOutbox(storage) },
});

export async function groupName(id: string): Promise<string> {
  const group: Group = await tally.groups.get(id);
  return group.name;
}

export async function amountOf(id: string): Promise<number | undefined> {
  try {
    const expense: Expense = await tally.expenses.get(id);
    return expense.amount;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    if (error instanceof TallyError) throw new Error(error.message);
    throw error;
  }
}

export async function wrong(): Promise<void> {
  // @ts-expect-error the types are real (not any): a group has a name, not a title
  await tally.groups.create({ title: 'Trip' });
  // @ts-expect-error an amount is a number
  const amount: string = (await tally.expenses.get('exp_1')).amount;
  void amount;
}
