import net from "node:net";

/** Where a request comes from, as express reads it (`trust proxy`); absent when the transport has no address. */
export interface RequestOrigin {
  address?: string | null;
}

/** The eight 16-bit groups of an IPv6 address, with `::` and an embedded IPv4 tail expanded. */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0].toLowerCase();
  const ipv4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail[1].split(".").map(Number);
    text = text.slice(0, -ipv4Tail[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

/**
 * The client address in one canonical spelling: IPv4 as dotted quad (also when it arrives IPv4-mapped,
 * `::ffff:203.0.113.5`), IPv6 as eight full groups; "unknown" when there is none.
 */
export function canonicalAddress(address: string | null | undefined): string {
  if (!address) return "unknown";
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return "unknown";
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  }
  return groups.map((g) => g.toString(16).padStart(4, "0")).join(":");
}

/**
 * The network an address belongs to, as one party usually holds it: a /24 of IPv4 (an office, a small hosting
 * block) and a /64 of IPv6 (what one home or one server is given, so a single host has 2^64 addresses of its own).
 */
export function networkOf(address: string | null | undefined): string {
  const canonical = canonicalAddress(address);
  if (canonical === "unknown") return canonical;
  if (net.isIPv4(canonical)) return `${canonical.split(".").slice(0, 3).join(".")}.0/24`;
  return `${canonical.split(":").slice(0, 4).join(":")}::/64`;
}
