import { userIdsOf } from './user-ids-of';

describe('userIdsOf', () => {
  it('lists the participants of every split type in between order', () => {
    expect(userIdsOf({ type: 'equal', between: ['usr_b', 'usr_a'] })).toEqual(['usr_b', 'usr_a']);
    expect(
      userIdsOf({
        type: 'exact',
        between: [
          { userId: 'usr_c', amount: 1 },
          { userId: 'usr_a', amount: 2 },
        ],
      }),
    ).toEqual(['usr_c', 'usr_a']);
    expect(userIdsOf({ type: 'percent', between: [{ userId: 'usr_p', percent: 100 }] })).toEqual(['usr_p']);
    expect(
      userIdsOf({
        type: 'shares',
        between: [
          { userId: 'usr_z', shares: 1 },
          { userId: 'usr_y', shares: 3 },
        ],
      }),
    ).toEqual(['usr_z', 'usr_y']);
  });

  it('returns a copy that callers may change without touching the split', () => {
    const between = ['usr_a'];
    const ids = userIdsOf({ type: 'equal', between });
    ids.push('usr_b');
    expect(between).toEqual(['usr_a']);
  });
});
