import { isPublicAddress, nonPublicHostReason, nonPublicReason } from './public-address';

describe('nonPublicReason', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['169.254.169.254', 'cloud metadata address'],
    ['100.100.100.200', 'cloud metadata address'],
    ['168.63.129.16', 'cloud metadata address'],
    ['fd00:ec2::254', 'cloud metadata address'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::808:808', 'IPv4-compatible'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 link-local'],
    ['64:ff9b::10.0.0.1', 'NAT64 private'],
    ['64:ff9b:1::808:808', 'NAT64'],
    ['2002:7f00:1::1', '6to4 loopback'],
    ['2002:c0a8:101::1', '6to4 private'],
    // Teredo: server 65.54.227.120 or 10.0.0.1; client 10.0.0.1 or 8.8.8.8, stored inverted (f5ff:fffe, f7f7:f7f7).
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo private'],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'Teredo private'],
    ['100::1', 'discard'],
    ['4000::1', 'not global unicast'],
    ['example.org', 'not an IP address'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('allows the public address %s', (address) => {
    expect(nonPublicReason(address)).toBeNull();
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('nonPublicHostReason', () => {
  it('checks literal addresses, bracketed or not, and local names', () => {
    expect(nonPublicHostReason('[::ffff:7f00:1]')).toBe('IPv4-mapped loopback');
    expect(nonPublicHostReason('127.0.0.1')).toBe('loopback');
    for (const host of ['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal']) {
      expect(nonPublicHostReason(host)).toBe('local host name');
    }
  });

  it('leaves other names to the connect-time lookup', () => {
    expect(nonPublicHostReason('eur-lex.europa.eu')).toBeNull();
    expect(nonPublicHostReason('[2606:4700:4700::1111]')).toBeNull();
  });
});
