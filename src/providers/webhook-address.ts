/**
 * Where webhooks may go (DESIGN.md section 4 `WEBHOOK_ALLOW_PRIVATE`): an endpoint's host must
 * resolve only to public unicast addresses. Checked when an endpoint is created or its URL changes, and
 * again before every attempt (DNS can change); the attempt then connects to the very address that was
 * checked, so a second DNS answer cannot slip a private address in (DNS rebinding).
 *
 * Addresses are classified by `ipaddr.js`'s `range()` (its tables of the IANA special-purpose registries):
 * everything but `unicast` is refused unless `WEBHOOK_ALLOW_PRIVATE` is on, and the cloud metadata
 * addresses are named as such. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, `ipaddr.process`) is the
 * IPv4 address it maps (a socket to it reaches that IPv4 host) and is judged as that. Translated forms,
 * which a gateway turns into an IPv4 address of its own network, are refused whatever they carry (the
 * target behind them is not the address checked): NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), SIIT (`::ffff:0:0:0/96`), 6to4 (`2002::/16`) and its relay
 * anycast `192.88.99.0/24`; one carrying a refused IPv4 address is named by that address's kind.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address is refused (`null` from `refusedAddressKind` means public). */
export type RefusedKind =
  'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified' | 'reserved' | 'multicast' | 'translated';

/** Cloud metadata services: AWS, GCP, Azure, OpenStack; AWS ECS task metadata; Alibaba Cloud; AWS IPv6. */
const METADATA = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((a) =>
  ipaddr.parse(a).toNormalizedString(),
);

/** `ipaddr.js` range names → the kind the refusal names; a range not listed (and not `unicast`) is `reserved`. */
const KINDS: Record<string, RefusedKind> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private', // RFC 6598
  uniqueLocal: 'private', // fc00::/7
  deprecatedSiteLocal: 'private', // fec0::/10
  linkLocal: 'link_local',
  multicast: 'multicast',
  rfc6052: 'translated', // NAT64
  rfc6145: 'translated', // SIIT
  '6to4': 'translated',
};

/** The IPv4 address a NAT64 (`64:ff9b::/96`), SIIT or 6to4 address carries, or null (`64:ff9b:1::/48`). */
function carriedIpv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const b = addr.toByteArray();
  const range = addr.range();
  if (range === '6to4') return new ipaddr.IPv4(b.slice(2, 6));
  if (range === 'rfc6145' || (range === 'rfc6052' && b.slice(4, 12).every((x) => x === 0)))
    return new ipaddr.IPv4(b.slice(12, 16));
  return null;
}

/** The kind of a refused address, null for unicast. */
function kindOf(addr: ipaddr.IPv4 | ipaddr.IPv6): RefusedKind | null {
  if (METADATA.includes(addr.toNormalizedString())) return 'metadata';
  const range = addr.range();
  if (range === 'unicast') return null;
  if (addr.kind() === 'ipv4' && addr.match(ipaddr.parseCIDR('192.88.99.0/24'))) return 'translated'; // 6to4 relay anycast
  if (addr instanceof ipaddr.IPv6) {
    const v4 = carriedIpv4(addr);
    const carried = v4 && kindOf(v4);
    if (carried && carried !== 'translated') return carried;
  }
  return KINDS[range] ?? 'reserved';
}

/**
 * Classifies an IP address literal (a zone id, `fe80::1%eth0`, is ignored).
 * @returns the kind of a refused address, or null for a public unicast address
 * @throws TypeError when `ip` is not an IP address
 */
export function refusedAddressKind(ip: string): RefusedKind | null {
  const plain = ip.replace(/%.*$/, '');
  if (net.isIP(plain) === 0) throw new TypeError(`not an IP address: ${ip}`);
  return kindOf(ipaddr.process(plain));
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
          `The host ${host} resolves to ${a.address}, a ${kind === 'translated' ? 'translated (NAT64, SIIT or 6to4)' : kind.replace('_', '-')} address; the service sends requests only to hosts on the public internet.`,
          'address_refused',
        );
      }
    }
  }
  return addresses;
}
