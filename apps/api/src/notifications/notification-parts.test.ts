import { createECDH, randomBytes } from 'node:crypto';
import webpush from 'web-push';
import { isInternalAddress } from './address-guard';
import { deepLink, formatMoney } from './notification-content';
import { createPushSender } from './push-sender';
import { createUnsubscribeTokens } from './unsubscribe-token';
import { isoWeekOf } from './weekly-digest';

describe('notification parts', () => {
  it('formats minor units in the currency’s ISO 4217 digits, exactly', () => {
    expect(formatMoney(4500, 'EUR')).toBe('45.00 EUR');
    expect(formatMoney(5, 'USD')).toBe('0.05 USD');
    expect(formatMoney(-1234, 'INR')).toBe('-12.34 INR');
    expect(formatMoney(1500, 'JPY')).toBe('1500 JPY');
    expect(formatMoney(1, 'KWD')).toBe('0.001 KWD');
    expect(formatMoney(900719925474099, 'EUR')).toBe('9007199254740.99 EUR');
  });

  it('links into the web client', () => {
    expect(deepLink('https://app.example/', 'grp_1', 'exp_2')).toBe(
      'https://app.example/#group=grp_1&record=exp_2',
    );
    expect(deepLink('https://app.example', 'grp_1')).toBe('https://app.example/#group=grp_1');
  });

  it('names ISO weeks as ISO 8601 does across year ends', () => {
    expect(isoWeekOf(new Date('2026-11-28T12:00:00Z'))).toBe('2026-W48');
    expect(isoWeekOf(new Date('2021-01-03T23:59:59Z'))).toBe('2020-W53');
    expect(isoWeekOf(new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01');
    expect(isoWeekOf(new Date('2026-01-01T00:00:00Z'))).toBe('2026-W01');
  });

  it('refuses internal push addresses and lets public ones through', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'fd00::1',
      'fe80::1',
      'not an ip',
    ])
      expect({ address, internal: isInternalAddress(address) }).toEqual({ address, internal: true });
    for (const address of [
      '142.250.74.46',
      '17.253.144.10',
      '2a00:1450:4001:80b::200a',
      '::ffff:142.250.74.46',
    ])
      expect({ address, internal: isInternalAddress(address) }).toEqual({ address, internal: false });
  });

  it('reads back only the unsubscribe tokens it signed', () => {
    const tokens = createUnsubscribeTokens('a secret of the deployment, 32 chars+');
    const token = tokens.make('usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC', 'digest');
    expect(tokens.read(token)).toEqual({ userId: 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC', scope: 'digest' });
    expect(createUnsubscribeTokens('another deployment’s secret, 32 chars').read(token)).toBeUndefined();
    const [body, mac] = token.split('.') as [string, string];
    const other = Buffer.from('usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RD.digest').toString('base64url');
    expect(tokens.read(`${other}.${mac}`)).toBeUndefined();
    expect(tokens.read(`${body}.${mac}x`)).toBeUndefined();
    expect(tokens.read(body)).toBeUndefined();
  });

  it('never connects to an internal push endpoint unless allowed, by literal or by name', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const keys = {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    };
    const sender = createPushSender({
      vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.com' },
    });
    const message = { id: '1', title: 't', body: 'b', url: 'https://app.example/', tag: 'x:1' };
    for (const endpoint of [
      'https://127.0.0.1:9/push',
      'https://[::1]:9/push',
      'https://localhost:9/push',
      'http://push.example.com/x',
    ])
      expect(await sender.send({ endpoint, ...keys }, message)).toEqual({
        kind: 'retry',
        reason: endpoint.startsWith('http:') ? 'endpoint is not https' : 'endpoint address refused',
      });
  });
});
