import { startTestServer, type TestServer, type TestUser } from '../support/test-server';

const forge = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

describe('cursors the API did not issue', () => {
  let t: TestServer;
  let ada: TestUser;
  let groupId: string;
  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
  });
  afterAll(async () => {
    await t.stop();
  });

  const lists = () => [
    '/v1/groups',
    `/v1/groups/${groupId}/expenses`,
    `/v1/groups/${groupId}/settlements`,
    `/v1/groups/${groupId}/events`,
  ];
  const forged = [
    'not-base64-json',
    forge(['not-a-date', 'exp_x']),
    forge([1, 2]),
    forge({ at: 1 }),
    forge(['abc']),
    forge([-1]),
    forge([]),
  ];

  it.each(forged)('answer 422 validation_failed on every list for cursor %s', async (cursor) => {
    for (const path of lists()) {
      const res = await t.request.get(path).query({ cursor }).set(ada.auth);
      expect({ path, status: res.status, code: res.body.code }).toEqual({
        path,
        status: 422,
        code: 'validation_failed',
      });
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'cursor' })]);
    }
  });
});
