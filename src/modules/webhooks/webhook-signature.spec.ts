import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, isWebhookSecret, signWebhook } from './webhook-signature';
import { webhookRetryDelayMs } from './webhook-backoff';

describe('webhook signatures (Standard Webhooks)', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it.each([
    [`whsec_${Buffer.alloc(24).toString('base64')}`, true],
    [`whsec_${Buffer.alloc(64).toString('base64')}`, true],
    [`whsec_${Buffer.alloc(23).toString('base64')}`, false],
    [`whsec_${Buffer.alloc(65).toString('base64')}`, false],
    ['whsec_not base64!', false],
    [Buffer.alloc(32).toString('base64'), false],
  ])('accepts %s as a secret: %s', (secret, ok) => {
    expect(isWebhookSecret(secret)).toBe(ok);
  });

  it('produces the signature standardwebhooks verifies', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'scan.completed', timestamp: '2026-11-24T08:00:00.000Z', data: { scan_id: 'x' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signWebhook(secret, 'msg_1', timestamp, body);
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });
});

describe('webhook retry back-off', () => {
  it('doubles from the base delay after each failed attempt', () => {
    expect([1, 2, 3, 4, 8].map((attemptsMade) => webhookRetryDelayMs(attemptsMade, 30_000))).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_840_000,
    ]);
  });

  it('caps the delay at one day', () => {
    expect(webhookRetryDelayMs(30, 30_000)).toBe(86_400_000);
  });
});
