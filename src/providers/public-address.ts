// Which addresses an outbound call made on a user's behalf (a webhook delivery, an exchange
// provider's platform) may reach: public unicast only. A user who names a URL must never make the
// service talk to itself, its network or the cloud's metadata endpoint, so every range of IANA's
// special-purpose registries is refused, each named in the refusal.
import { BlockList, isIP } from 'node:net';

interface SpecialRange {
  readonly cidr: string;
  readonly name: string;
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates), plus multicast and reserved.
const IPV4_SPECIAL: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"this network" (unspecified)' },
  { cidr: '10.0.0.0/8', name: 'private' },
  { cidr: '100.64.0.0/10', name: 'carrier-grade NAT (shared)' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'link-local' },
  { cidr: '172.16.0.0/12', name: 'private' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignment' },
  { cidr: '192.0.2.0/24', name: 'documentation' },
  { cidr: '192.88.99.0/24', name: '6to4 relay anycast' },
  { cidr: '192.168.0.0/16', name: 'private' },
  { cidr: '198.18.0.0/15', name: 'benchmarking' },
  { cidr: '198.51.100.0/24', name: 'documentation' },
  { cidr: '203.0.113.0/24', name: 'documentation' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'reserved (incl. broadcast)' },
];

// IPv6: only global unicast (2000::/3) is public; inside it these are not.
const IPV6_SPECIAL: readonly SpecialRange[] = [
  { cidr: '::1/128', name: 'loopback' },
  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped' },
  { cidr: '64:ff9b::/96', name: 'NAT64' },
  { cidr: '64:ff9b:1::/48', name: 'NAT64 (local)' },
  { cidr: '100::/64', name: 'discard-only' },
  { cidr: '2001::/23', name: 'IETF protocol assignment (incl. Teredo)' },
  { cidr: '2001:db8::/32', name: 'documentation' },
  { cidr: '2002::/16', name: '6to4' },
  { cidr: '3fff::/20', name: 'documentation' },
  { cidr: 'fc00::/7', name: 'unique local (private)' },
  { cidr: 'fe80::/10', name: 'link-local' },
  { cidr: 'ff00::/8', name: 'multicast' },
];

function blockList(ranges: readonly SpecialRange[], family: 'ipv4' | 'ipv6'): Array<{ name: string; list: BlockList }> {
  return ranges.map(({ cidr, name }) => {
    const [network, prefix] = cidr.split('/') as [string, string];
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return { name, list };
  });
}

const V4 = blockList(IPV4_SPECIAL, 'ipv4');
const V6 = blockList(IPV6_SPECIAL, 'ipv6');
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

export interface AddressRules {
  /** Tests only: accept loopback addresses (127.0.0.0/8 and ::1), so a local receiver can be reached. */
  readonly allowLoopback: boolean;
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, in either notation) as its IPv4 address. */
function mappedIpv4(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * Why an IP address may not be dialled, or null when it is public unicast. IPv4-mapped IPv6
 * addresses are refused as such and name the IPv4 address they carry.
 */
export function addressRefusal(address: string, rules: AddressRules): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return `${address} is not an IP address`;
  if (family === 4) {
    const hit = V4.find((range) => range.list.check(bare, 'ipv4'));
    if (!hit) return null;
    if (hit.name === 'loopback' && rules.allowLoopback) return null;
    return `${bare} is a ${hit.name} address`;
  }
  const mapped = mappedIpv4(bare);
  if (mapped !== null) return `${bare} is an IPv4-mapped IPv6 address (of ${mapped})`;
  const hit = V6.find((range) => range.list.check(bare, 'ipv6'));
  if (hit) {
    if (hit.name === 'loopback' && rules.allowLoopback) return null;
    return `${bare} is a ${hit.name} address`;
  }
  if (!GLOBAL_UNICAST.check(bare, 'ipv6')) return `${bare} is not a global unicast address`;
  return null;
}

/**
 * Why a host name may not be used at all, before any lookup: names that only mean something on
 * this machine or its private network (localhost, *.localhost, *.local, *.internal, *.lan,
 * *.home.arpa, single-label names). Null for a name worth resolving or an IP literal.
 */
export function localNameRefusal(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return null;
  if (host === 'localhost' || host.endsWith('.localhost')) return `${hostname} names this machine`;
  for (const suffix of ['.local', '.internal', '.lan', '.home.arpa', '.intranet', '.corp']) {
    if (host.endsWith(suffix)) return `${hostname} is a local network name (${suffix})`;
  }
  if (!host.includes('.')) return `${hostname} is a single-label name, resolved only on a local network`;
  return null;
}

/** The code carried by an error raised when a connection is refused by the address rule. */
export const UNSAFE_ADDRESS = 'CATRISK_UNSAFE_ADDRESS';

export class UnsafeAddressError extends Error {
  readonly code = UNSAFE_ADDRESS;
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeAddressError';
  }
}
