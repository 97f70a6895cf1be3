import { webhookAddressPolicy, webhookUrlProblem } from './webhook-url';

describe('webhook URLs', () => {
  it.each([
    ['https://hooks.example.com/x', false, null],
    ['http://hooks.example.com/x', false, 'url must be an https URL'],
    ['https://10.0.0.8/x', false, expect.stringContaining('private')],
    ['https://[::1]/x', false, expect.stringContaining('loopback')],
    ['http://127.0.0.1:8080/x', false, 'url must be an https URL'],
    ['http://127.0.0.1:8080/x', true, null],
    ['http://localhost:8080/x', true, null],
    ['https://10.0.0.8/x', true, expect.stringContaining('private')],
    ['https://user:pw@hooks.example.com/x', false, 'url must not carry credentials'],
    ['hooks.example.com', false, 'url must be an absolute https URL'],
  ])('%s (loopback allowed: %s)', (url, allowLoopback, problem) => {
    expect(webhookUrlProblem(url, allowLoopback)).toEqual(problem);
  });

  it('checks every resolved address at delivery time, as page fetches do', () => {
    expect(webhookAddressPolicy(false)('127.0.0.1', 'rebound.example.com')).toBe('loopback');
    expect(webhookAddressPolicy(false)('169.254.169.254', 'rebound.example.com')).toBe('cloud metadata address');
    expect(webhookAddressPolicy(true)('127.0.0.1', 'localhost')).toBeNull();
    expect(webhookAddressPolicy(true)('192.168.1.5', 'printer.example.com')).toBe('private');
    expect(webhookAddressPolicy(false)('93.184.216.34', 'hooks.example.com')).toBeNull();
  });
});
