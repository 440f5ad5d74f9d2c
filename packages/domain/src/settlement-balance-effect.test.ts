import { settlementBalanceEffect } from './settlement-balance-effect';

describe('settlementBalanceEffect', () => {
  it('raises the payer’s net and lowers the receiver’s by the amount', () => {
    expect(
      settlementBalanceEffect({ currency: 'INR', fromUserId: 'usr_b', toUserId: 'usr_a', amount: 500 }),
    ).toEqual([
      { currency: 'INR', userId: 'usr_a', delta: -500 },
      { currency: 'INR', userId: 'usr_b', delta: 500 },
    ]);
  });

  it('lists the entries by userId whichever way the money goes', () => {
    const effect = settlementBalanceEffect({
      currency: 'USD',
      fromUserId: 'usr_a',
      toUserId: 'usr_b',
      amount: 7,
    });
    expect(effect).toEqual([
      { currency: 'USD', userId: 'usr_a', delta: 7 },
      { currency: 'USD', userId: 'usr_b', delta: -7 },
    ]);
  });

  it('has no effect when someone pays themselves', () => {
    expect(
      settlementBalanceEffect({ currency: 'INR', fromUserId: 'usr_a', toUserId: 'usr_a', amount: 5 }),
    ).toEqual([]);
  });
});
