/**
 * Where webhooks may go (DESIGN.md section 4 `WEBHOOK_ALLOW_PRIVATE`): an endpoint's host must
 * resolve only to public unicast addresses. Loopback, private (RFC 1918, CGNAT, IPv6 ULA), link-local,
 * cloud metadata, unspecified, documentation/reserved and multicast addresses are refused unless
 * `WEBHOOK_ALLOW_PRIVATE` is on. Checked when an endpoint is created or its URL changes, and again before
 * every attempt (DNS can change); the attempt then connects to the very address that was checked, so a
 * second DNS answer cannot slip a private address in (DNS rebinding).
 *
 * IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`) IPv6 addresses are judged
 * by the IPv4 address they carry. Uses node's `net.BlockList`; no dependency.
 */
import dns from 'node:dns';
import net from 'node:net';

/** Why an address is refused (`null` from `refusedAddressKind` means public). */
export type RefusedKind = 'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified' | 'reserved' | 'multicast';

const RANGES: [RefusedKind, string, number, 'ipv4' | 'ipv6'][] = [
  // Checked in this order, so the metadata addresses are named as such rather than link-local/private.
  ['metadata', '169.254.169.254', 32, 'ipv4'], // AWS, GCP, Azure, OpenStack…
  ['metadata', '169.254.170.2', 32, 'ipv4'], // AWS ECS task metadata
  ['metadata', '100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'], // AWS IPv6
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'], // carrier-grade NAT (RFC 6598)
  ['private', 'fc00::', 7, 'ipv6'], // unique local
  ['private', 'fec0::', 10, 'ipv6'], // deprecated site-local
  ['link_local', '169.254.0.0', 16, 'ipv4'],
  ['link_local', 'fe80::', 10, 'ipv6'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'], // includes 255.255.255.255
  ['reserved', '100::', 64, 'ipv6'], // discard
  ['reserved', '2001:db8::', 32, 'ipv6'], // documentation
  ['reserved', '2001::', 32, 'ipv6'], // Teredo (carries an obfuscated IPv4 address)
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

const LISTS: [RefusedKind, net.BlockList][] = RANGES.map(([kind, network, prefix, type]) => {
  const list = new net.BlockList();
  list.addSubnet(network, prefix, type);
  return [kind, list];
});

/** The 16 bytes of an IPv6 address (zone id ignored), or null when `ip` is not one. */
function ipv6Bytes(ip: string): number[] | null {
  const s = ip.replace(/%.*$/, '');
  if (net.isIPv6(s) === false) return null;
  let head = s;
  let v4: number[] = [];
  const m = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (m) {
    head = m[1].endsWith('::') ? m[1] : m[1].slice(0, -1);
    v4 = m[2].split('.').map(Number);
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const words = (part: string | undefined) =>
    part
      ? part
          .split(':')
          .filter((w) => w !== '')
          .map((w) => parseInt(w, 16))
      : [];
  const l = words(left);
  const r = words(right);
  const missing = 8 - l.length - r.length - v4.length / 2;
  const all = [...l, ...(right !== undefined ? Array(Math.max(0, missing)).fill(0) : []), ...r];
  const bytes = all.flatMap((w) => [w >> 8, w & 0xff]).concat(v4);
  return bytes.length === 16 ? bytes : null;
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64 or 6to4), or null. */
function embeddedIpv4(ip: string): string | null {
  const b = ipv6Bytes(ip);
  if (!b) return null;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.'); // ::ffff:a.b.c.d
  if (zeros(0, 12) && !(b[12] === 0 && b[13] === 0 && b[14] === 0 && b[15] <= 1)) return b.slice(12).join('.'); // deprecated ::a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return b.slice(12).join('.'); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6).join('.'); // 2002::/16
  return null;
}

/**
 * Classifies an IP address literal.
 * @returns the kind of a refused address, or null for a public unicast address
 * @throws TypeError when `ip` is not an IP address
 */
export function refusedAddressKind(ip: string): RefusedKind | null {
  const family = net.isIP(ip.replace(/%.*$/, ''));
  if (family === 0) throw new TypeError(`not an IP address: ${ip}`);
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return refusedAddressKind(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const plain = ip.replace(/%.*$/, '');
  for (const [kind, list] of LISTS) if (list.check(plain, type)) return kind;
  return null;
}

/** A host that may not receive webhooks, or that does not resolve. `code` is stable. */
export class WebhookAddressError extends Error {
  constructor(
    message: string,
    public readonly code: 'host_unresolvable' | 'address_refused',
  ) {
    super(message);
    this.name = 'WebhookAddressError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** How long a DNS lookup may take before the host counts as unresolvable, ms. */
export const DNS_TIMEOUT_MS = 5_000;

/**
 * Resolves the host of an `https:` URL to every address it has and checks them all.
 * @param allowPrivate skip the refusal of non-public addresses (`WEBHOOK_ALLOW_PRIVATE`)
 * @returns the addresses, in resolver order (the first one is used to connect)
 * @throws WebhookAddressError `host_unresolvable` or `address_refused` (naming the address and why)
 */
export async function resolveWebhookHost(url: URL, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) as 4 | 6 }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      const found = await Promise.race([
        dns.promises.lookup(host, { all: true, verbatim: true }),
        new Promise<never>(
          (_, reject) =>
            (timer = setTimeout(
              () => reject(new Error(`DNS lookup timed out after ${DNS_TIMEOUT_MS} ms`)),
              DNS_TIMEOUT_MS,
            )),
        ),
      ]);
      addresses = found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } catch (err) {
      throw new WebhookAddressError(
        `The host ${host} could not be resolved (${(err as Error).message}).`,
        'host_unresolvable',
      );
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0)
      throw new WebhookAddressError(`The host ${host} could not be resolved.`, 'host_unresolvable');
  }
  if (!allowPrivate) {
    for (const a of addresses) {
      const kind = refusedAddressKind(a.address);
      if (kind) {
        throw new WebhookAddressError(
          `The host ${host} resolves to ${a.address}, a ${kind.replace('_', '-')} address; the service sends requests only to hosts on the public internet.`,
          'address_refused',
        );
      }
    }
  }
  return addresses;
}
