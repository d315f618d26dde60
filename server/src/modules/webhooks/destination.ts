import { LookupAddress, LookupAllOptions, LookupOneOptions, lookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address is one a webhook may reach: public unicast only. Loopback, private,
 * link-local (cloud metadata at 169.254.169.254), unique-local (fd00:ec2::254), carrier-grade NAT
 * (100.100.100.200), multicast, reserved and unspecified addresses are not.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  return ipaddr.process(address).range() === 'unicast';
}

/** Raised when a destination resolves to an address that is not public. */
export class BlockedDestination extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, which is not a public address.`);
  }
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Every address the URL's host stands for: the literal, or what DNS answers. */
async function addressesOf(url: URL): Promise<string[]> {
  const host = hostOf(url);
  if (isIP(host)) return [host];
  return new Promise((resolve, reject) =>
    lookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses.map((entry) => entry.address)))),
  );
}

/**
 * Why the URL's host may not be reached, or null when it may: checked once an endpoint is
 * registered, and again on every connection (see {@link guardedLookup}), since DNS may answer
 * differently later.
 */
export async function destinationRefusal(url: URL): Promise<string | null> {
  let addresses: string[];
  try {
    addresses = await addressesOf(url);
  } catch {
    return `${url.hostname} could not be resolved.`;
  }
  const blocked = addresses.find((address) => !isPublicAddress(address));
  return blocked ? new BlockedDestination(url.hostname, blocked).message : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses a host resolving to any non-public address, at the
 * moment of connecting: what is checked is what is connected to (no DNS rebinding in between).
 */
export function guardedLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const blocked = addresses.find((entry) => !isPublicAddress(entry.address));
    if (blocked) return callback(new BlockedDestination(hostname, blocked.address) as NodeJS.ErrnoException, []);
    if ((options as LookupAllOptions).all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/** A literal address in the URL is connected to without a lookup: it is judged here. */
export function literalRefusal(url: URL): string | null {
  const host = hostOf(url);
  return isIP(host) && !isPublicAddress(host) ? new BlockedDestination(host, host).message : null;
}
