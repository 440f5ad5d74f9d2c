import type { GroupEvent } from '@tally/events';
import { WEBHOOK_BOUNDS } from './webhook-bounds';
import { deliveryIdOf, payloadOf } from './webhook-dispatcher';

const event = (data: Record<string, unknown>): GroupEvent => ({
  id: 'evt_1',
  seq: 7,
  type: 'expense.created',
  groupId: 'grp_1',
  actorId: 'usr_1',
  occurredAt: '2026-11-28T10:00:00.000Z',
  data,
});

describe('payloadOf', () => {
  it('is Standard Webhooks’ {type, timestamp, data} with the event as the log shows it', () => {
    const e = event({ expense: { id: 'exp_1' } });
    expect(JSON.parse(payloadOf(e))).toEqual({ type: 'expense.created', timestamp: e.occurredAt, data: e });
  });

  it('leaves out the data of an event too large to send, and says so', () => {
    const e = event({ note: 'x'.repeat(WEBHOOK_BOUNDS.payloadBytes) });
    const body = payloadOf(e);
    expect(Buffer.byteLength(body)).toBeLessThan(1024);
    const { data: _data, ...rest } = e;
    expect(JSON.parse(body)).toEqual({
      type: e.type,
      timestamp: e.occurredAt,
      data: { ...rest, truncated: true },
    });
  });
});

describe('deliveryIdOf', () => {
  it('is the same for every attempt of one event to one endpoint, and differs otherwise', () => {
    expect(deliveryIdOf('whk_A', 7)).toBe(deliveryIdOf('whk_A', 7));
    expect(deliveryIdOf('whk_A', 7)).not.toBe(deliveryIdOf('whk_A', 8));
    expect(deliveryIdOf('whk_A', 7)).not.toBe(deliveryIdOf('whk_B', 7));
  });
});
