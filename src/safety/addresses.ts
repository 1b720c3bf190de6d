/**
 * Which IP addresses the web tools may connect to. Only ordinary public unicast addresses
 * pass; everything a page could use to reach the user's own machine or network is named so
 * the refusal can say what it was: loopback, private (RFC 1918), carrier-grade NAT, IPv6
 * unique-local and link-local, 169.254/16 (where cloud metadata services live), multicast,
 * unspecified (0.0.0.0 reaches the local host), and the IPv4-mapped or embedded forms of all
 * of these. Parsing goes through ipaddr.js, so every spelling the URL parser or the resolver
 * hands over is classified by value, not by text.
 */
import ipaddr from 'ipaddr.js';

/** Why an address is refused, in words for the message; undefined when it is public. */
type AddressVerdict =
  { public: true; address: string } | { public: false; address: string; what: string };

const WORDS: Record<string, string> = {
  loopback: 'loopback, this machine',
  private: 'a private network address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a private IPv6 address',
  linkLocal: 'link-local, where cloud metadata services answer',
  multicast: 'multicast',
  unspecified: 'the unspecified address, which reaches this machine',
  broadcast: 'broadcast',
};

/** An IPv6 site-local address (fec0::/10): deprecated, but still routed inside some sites. */
function isSiteLocal(ip: ipaddr.IPv6): boolean {
  const first = ip.parts[0] ?? 0;
  return (first & 0xffc0) === 0xfec0;
}

/**
 * Classifies one address literal (`127.0.0.1`, `::ffff:7f00:1`, `fe80::1%eth0`). A string
 * that is not an address at all is refused as such: the caller resolves names first.
 */
export function classifyAddress(literal: string): AddressVerdict {
  const text = literal.replace(/^\[|\]$/g, '');
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(text);
  } catch {
    return { public: false, address: text, what: 'not an IP address' };
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  const address = ip.toString();
  const range = ip.range();
  if (range === 'unicast' && !(ip.kind() === 'ipv6' && isSiteLocal(ip as ipaddr.IPv6))) {
    return { public: true, address };
  }
  const what =
    WORDS[range] ??
    (range === 'unicast' ? 'a site-local IPv6 address' : `a reserved address (${range})`);
  return { public: false, address, what };
}
