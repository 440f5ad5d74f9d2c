import { startTestServer } from '../support/test-server';

/** The server of the conventions suites: Ada and Bob in one group. */
export async function startConventionsServer() {
  const t = await startTestServer();
  const ada = await t.register('Ada');
  const bob = await t.register('Bob');
  return { t, ada, bob, groupId: await t.createGroup(ada, [bob]) };
}
