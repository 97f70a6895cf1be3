import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { AddressPolicy } from '../../infra/providers/http/page-dispatcher';
import { nonPublicHostReason, nonPublicReason } from '../../infra/providers/http/public-address';

function isLoopbackAddress(address: string): boolean {
  try {
    const ip = ipaddr.process(address);
    return ip.range() === 'loopback';
  } catch {
    return false;
  }
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host));
}

/**
 * Why an endpoint URL cannot be registered, or null: https on a host that is not inward-facing, by the same guard
 * as page fetches. `allowLoopback` (tests and development) admits this host, over plain http too.
 */
export function webhookUrlProblem(value: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute https URL';
  }
  const loopback = allowLoopback && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return 'url must be an https URL';
  if (url.username || url.password) return 'url must not carry credentials';
  const reason = loopback ? null : nonPublicHostReason(url.hostname);
  return reason ? `url must reach a public address (${url.hostname}: ${reason})` : null;
}

/** The connect-time check of every resolved address (DNS may have changed since registration). */
export function webhookAddressPolicy(allowLoopback: boolean): AddressPolicy {
  return (address) => (allowLoopback && isLoopbackAddress(address) ? null : nonPublicReason(address));
}
