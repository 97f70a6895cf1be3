import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

// Metadata services that sit outside the private ranges (Azure's wire server is public address space).
const METADATA_ADDRESSES = ['169.254.169.254', '169.254.170.2', '100.100.100.200', '168.63.129.16', '192.0.0.192', 'fd00:ec2::254'].map(
  (address) => ipaddr.parse(address).toString(),
);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const RANGE_LABELS: Record<string, string> = {
  carrierGradeNat: 'carrier-grade NAT',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  teredo: 'Teredo',
};

/** Why a page fetch must not reach this IP address, or null when it is public unicast. */
export function nonPublicReason(address: string): string | null {
  let ip: Address;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (METADATA_ADDRESSES.includes(ip.toString())) return 'cloud metadata address';
  return ip.kind() === 'ipv4' ? ipv4Reason(ip as ipaddr.IPv4) : ipv6Reason(ip as ipaddr.IPv6);
}

export function isPublicAddress(address: string): boolean {
  return nonPublicReason(address) === null;
}

/**
 * Checks what can be known from the URL alone: a literal address, or a name that only ever means this host or
 * its private network. Names are resolved (and checked) when the connection is made.
 */
export function nonPublicHostReason(hostname: string): string | null {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host)) return nonPublicReason(host);
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal')) return 'local host name';
  return null;
}

function ipv4Reason(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : label(range);
}

function ipv6Reason(ip: ipaddr.IPv6): string | null {
  const range = ip.range();
  const embedded = embeddedIPv4(ip, range);
  if (embedded) {
    const reason = embedded.map(ipv4Reason).find((found) => found !== null);
    return reason ? `${label(range)} ${reason}` : null;
  }
  if (range !== 'unicast') return label(range);
  if (ip.parts.slice(0, 6).every((part) => part === 0)) return 'IPv4-compatible';
  return ip.match(GLOBAL_UNICAST_V6) ? null : 'not global unicast';
}

function label(range: string): string {
  return RANGE_LABELS[range] ?? range;
}

/** The IPv4 addresses carried by transition forms, whose reachability is that of the IPv4 address. */
function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4[] | null {
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const [, p1, p2, p3, , , p6, p7] = ip.parts;
  if (range === 'ipv4Mapped') return [ip.toIPv4Address()];
  // The local-use NAT64 prefix (64:ff9b:1::/48) places the IPv4 address per network, so only the well-known one is read.
  if (range === 'rfc6052' && ip.match(NAT64_WELL_KNOWN)) return [v4(p6, p7)];
  if (range === '6to4') return [v4(p1, p2)];
  // Teredo: the server address, and the client address stored inverted.
  if (range === 'teredo') return [v4(p2, p3), v4(~p6 & 0xffff, ~p7 & 0xffff)];
  return null;
}
