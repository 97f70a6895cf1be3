import { promises as dns, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { nonPublicReason } from './public-address';

/** Resolves a host name to every address a connection may use. */
export type Resolve = (hostname: string, options: LookupAllOptions) => Promise<LookupAddress[]>;
/** Why a connection to `address` (resolved from `hostname`) must not be made, or null to allow it. */
export type AddressPolicy = (address: string, hostname: string) => string | null;

export interface PageDispatcherOptions {
  resolve?: Resolve;
  refuseAddress?: AddressPolicy;
  /** Egress proxy: it resolves names itself, so no local lookup happens. */
  proxyUrl?: string;
}

export class RefusedAddressError extends Error {
  constructor(
    readonly hostname: string,
    readonly reason: string,
  ) {
    super(`${hostname}: ${reason}`);
    this.name = 'RefusedAddressError';
  }
}

const resolveAll: Resolve = (hostname, options) => dns.lookup(hostname, options);

/** The dispatcher page fetches go through: by name, with every resolved address checked at connect time. */
export function createPageDispatcher(options: PageDispatcherOptions = {}): Dispatcher {
  if (options.proxyUrl) return new ProxyAgent(options.proxyUrl);
  return new Agent({ connect: { lookup: checkedLookup(options.resolve ?? resolveAll, options.refuseAddress ?? nonPublicReason) } });
}

/**
 * A lookup for net/tls.connect that refuses the host if any of its addresses is refused. The socket connects to
 * the addresses checked here, so a second DNS answer (rebinding) never gets a say.
 */
export function checkedLookup(resolve: Resolve, refuse: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }).then(
      (addresses) => {
        for (const { address } of addresses) {
          const reason = refuse(address, hostname);
          if (reason) return callback(new RefusedAddressError(hostname, `resolves to ${address} (${reason})`), '');
        }
        if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
