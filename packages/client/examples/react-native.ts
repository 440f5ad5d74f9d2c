import AsyncStorage from '@react-native-async-storage/async-storage';
import NetInfo from '@react-native-community/netinfo';
import { asyncStorageOutbox, NotAMemberError, TallyClient, type TokenStore } from '@tally/client';
import * as SecureStore from 'expo-secure-store';

// The session in the device's secure storage, so the app starts signed in.
const tokenStore: TokenStore = {
  get: async () => JSON.parse((await SecureStore.getItemAsync('tally')) ?? 'null') ?? undefined,
  set: async (tokens) =>
    tokens ? SecureStore.setItemAsync('tally', JSON.stringify(tokens)) : SecureStore.deleteItemAsync('tally'),
};

export const tally = new TallyClient({
  baseUrl: 'https://api.example.com',
  tokenStore,
  outbox: {
    storage: asyncStorageOutbox(AsyncStorage), // the whole outbox under one AsyncStorage key
    onRejected: ({ entry, error }) => {
      // A final answer the app must show: here, someone in the split has left the group.
      if (error instanceof NotAMemberError)
        console.warn(
          entry.id,
          error.errors.map((e) => e.path),
        );
    },
  },
});
// React Native has no `online` event: wake the outbox when NetInfo says the network is back.
NetInfo.addEventListener((state) => {
  if (state.isConnected) tally.outbox.wake();
});

export async function addDinner(groupId: string, meId: string, friendId: string) {
  await tally.outbox.ready; // pending() lists what the last run left only once this resolves
  const { expenseId } = await tally.outbox.createExpense({
    groupId,
    description: 'Dinner',
    amount: 120000,
    paidBy: meId,
    split: {
      type: 'percent',
      between: [
        { userId: meId, percent: 40 },
        { userId: friendId, percent: 60 },
      ],
    },
  });
  return { expenseId, pending: tally.outbox.pending(groupId) };
}
