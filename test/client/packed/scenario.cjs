// What a consumer of the installed package does against a real Tally (TALLY_URL), given the module it
// loaded (ESM `import` or CommonJS `require`). Copied into the scratch project of
// test/client/packed-install.test.ts; prints nothing itself.
const PASSWORD = 'correct horse battery';

exports.scenario = async (sdk, baseUrl, label) => {
  const tokens = new sdk.MemoryTokenStore();
  const tally = new sdk.TallyClient({ baseUrl, tokenStore: tokens, outbox: { autoStart: false } });
  const email = `packed.${label}.${process.pid}.${Date.now()}@example.com`;
  const session = await tally.auth.register({ email, name: `Packed ${label}`, password: PASSWORD });
  const group = await tally.groups.create({ name: `Packed ${label}` });
  const read = await tally.groups.get(group.id);
  let missing;
  try {
    await tally.expenses.get('exp_01J00000000000000000000000');
  } catch (error) {
    missing = {
      tallyError: error instanceof sdk.TallyError,
      notFound: error instanceof sdk.NotFoundError,
      status: error.status,
    };
  }
  return {
    userId: session.user.id,
    tokenStored: tokens.get()?.accessToken === session.accessToken,
    groupId: group.id,
    groupName: read.name,
    idempotencyKey: sdk.randomIdempotencyKey(),
    etag: sdk.etagOf(read),
    missing,
  };
};
