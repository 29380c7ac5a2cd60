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
 * anycast `192.88.99.0/24`; one carrying a refused IPv4 address is named by that address's kind. An
 * IPv4-compatible IPv6 address (`::a.b.c.d`, `::/96`, deprecated by RFC 4291 section 2.5.5.1) is refused
 * too: ipaddr.js calls it `unicast`, yet some stacks route it to the IPv4 host it carries
 * (`::a9fe:a9fe` is 169.254.169.254).
 *
 * Two refusals hold whatever `WEBHOOK_ALLOW_PRIVATE` says: a port the operator lists
 * (`WEBHOOK_REFUSED_PORTS`, default the ports of Temporal, its UI, the store and worker metrics), and the
 * service's own public addresses (`PUBLIC_BASE_URL`'s host, resolved and cached for a minute), so a tenant
 * cannot make the service call itself or its infrastructure from the inside.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { config } from '../config';
import { logger } from '../logger';

/** Why an address is refused (`null` from `refusedAddressKind` means public). */
export type RefusedKind =
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'unspecified'
  | 'reserved'
  | 'multicast'
  | 'translated'
  | 'ipv4_compatible';

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

/** The IPv4 address an IPv4-compatible IPv6 address (`::a.b.c.d`, not `::` or `::1`) carries, or null. */
function compatibleIpv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const b = addr.toByteArray();
  if (!b.slice(0, 12).every((x) => x === 0) || ['unspecified', 'loopback'].includes(addr.range())) return null;
  return new ipaddr.IPv4(b.slice(12, 16));
}

/** The kind of a refused address, null for unicast. */
function kindOf(addr: ipaddr.IPv4 | ipaddr.IPv6): RefusedKind | null {
  if (METADATA.includes(addr.toNormalizedString())) return 'metadata';
  const compatible = addr instanceof ipaddr.IPv6 ? compatibleIpv4(addr) : null;
  if (compatible) return kindOf(compatible) ?? 'ipv4_compatible';
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
 * An IPv6 literal with a dotted tail in WHATWG URL's serialization (`::8.8.8.8` → `::808:808`): ipaddr.js
 * would parse `::a.b.c.d` as IPv4-mapped, hiding an IPv4-compatible address.
 */
function canonical(plain: string): string {
  return net.isIP(plain) === 6 && plain.includes('.') ? new URL(`http://[${plain}]/`).hostname.slice(1, -1) : plain;
}

/**
 * Classifies an IP address literal (a zone id, `fe80::1%eth0`, is ignored).
 * @returns the kind of a refused address, or null for a public unicast address
 * @throws TypeError when `ip` is not an IP address
 */
export function refusedAddressKind(ip: string): RefusedKind | null {
  const plain = ip.replace(/%.*$/, '');
  if (net.isIP(plain) === 0) throw new TypeError(`not an IP address: ${ip}`);
  return kindOf(ipaddr.process(canonical(plain)));
}

/** How long the addresses of `PUBLIC_BASE_URL`'s host are kept before they are looked up again, ms. */
const OWN_ADDRESSES_TTL_MS = 60_000;
let ownAddresses: { base: string; atMs: number; addresses: Promise<Set<string>> } | null = null;

/**
 * The service's own addresses: those of `PUBLIC_BASE_URL`'s host (normalized, IPv4-mapped as IPv4),
 * looked up at most once a minute; empty when it does not resolve (logged: the other refusals still hold).
 */
async function ownPublicAddresses(): Promise<Set<string>> {
  const base = config().publicBaseUrl;
  if (ownAddresses?.base === base && Date.now() - ownAddresses.atMs < OWN_ADDRESSES_TTL_MS)
    return ownAddresses.addresses;
  const lookup = async (): Promise<Set<string>> => {
    const host = new URL(base).hostname.replace(/^\[(.*)\]$/, '$1');
    try {
      const found = net.isIP(host) ? [{ address: host }] : await dns.promises.lookup(host, { all: true });
      return new Set(found.map((a) => ipaddr.process(canonical(a.address)).toNormalizedString()));
    } catch (err) {
      logger.warn('PUBLIC_BASE_URL host did not resolve: its addresses are not refused', {
        error: (err as Error).message,
      });
      return new Set();
    }
  };
  ownAddresses = { base, atMs: Date.now(), addresses: lookup() };
  return ownAddresses.addresses;
}

/** The port a URL connects to (its own, else its scheme's). */
const portOfUrl = (url: URL) => Number(url.port || (url.protocol === 'http:' ? 80 : 443));

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

/** How a refusal names the kinds whose identifier does not read as words. */
const KIND_WORDS: Partial<Record<RefusedKind, string>> = {
  translated: 'translated (NAT64, SIIT or 6to4)',
  ipv4_compatible: 'IPv4-compatible IPv6 (::a.b.c.d)',
};

/** How long a DNS lookup may take before the host counts as unresolvable, ms. */
export const DNS_TIMEOUT_MS = 5_000;

/**
 * Resolves the host of an `https:` URL to every address it has and checks them all, and its port.
 * @param allowPrivate skip the refusal of non-public addresses (`WEBHOOK_ALLOW_PRIVATE`), or of loopback
 *   ones only (`'loopback'`: knowledge crawls' `KNOWLEDGE_CRAWL_ALLOW_LOOPBACK`); a refused port
 *   (`WEBHOOK_REFUSED_PORTS`) and the service's own public addresses are refused all the same
 * @returns the addresses, in resolver order (the first one is used to connect)
 * @throws WebhookAddressError `host_unresolvable` or `address_refused` (naming the address or port and why)
 */
export async function resolveWebhookHost(url: URL, allowPrivate: boolean | 'loopback'): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = portOfUrl(url);
  if (config().webhookRefusedPorts.includes(port))
    throw new WebhookAddressError(
      `Port ${port} is one of the service's own infrastructure ports (WEBHOOK_REFUSED_PORTS); the service sends requests only to other ports.`,
      'address_refused',
    );
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
  const own = await ownPublicAddresses();
  for (const a of addresses) {
    const kind = refusedAddressKind(a.address);
    if (kind && allowPrivate !== true && !(allowPrivate === 'loopback' && kind === 'loopback')) {
      throw new WebhookAddressError(
        `The host ${host} resolves to ${a.address}, a ${KIND_WORDS[kind] ?? kind.replace('_', '-')} address; the service sends requests only to hosts on the public internet.`,
        'address_refused',
      );
    }
    if (!kind && own.has(ipaddr.process(canonical(a.address.replace(/%.*$/, ''))).toNormalizedString()))
      throw new WebhookAddressError(
        `The host ${host} resolves to ${a.address}, this service's own address (PUBLIC_BASE_URL); the service does not send requests to itself.`,
        'address_refused',
      );
  }
  return addresses;
}
