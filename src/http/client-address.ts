import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a request came from, for counting failed authentications per client.
 *
 * With `trustedHops` proxies in front (load balancer, CDN, ...), each appends the address it
 * received the request from to X-Forwarded-For, so the client is the entry `trustedHops` from
 * the right: everything left of it was written by the client and is ignored. An entry that is
 * not an IP address (a misconfigured proxy) falls back to the socket's peer. Without trusted
 * hops the header is never read.
 *
 * The result identifies a client, not a host: IPv4-mapped IPv6 is the IPv4 address, and an
 * IPv6 address counts as its /64, the smallest block a subscriber is usually given.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trustedHops: number): string {
  let chosen = peer ?? '';
  if (trustedHops > 0 && forwardedFor) {
    const entries = forwardedFor.split(',').map((entry) => entry.trim());
    const entry = entries[Math.max(0, entries.length - trustedHops)];
    const address = entry === undefined ? null : stripPort(entry);
    if (address !== null && (isIPv4(address) || isIPv6(address))) chosen = address;
  }
  return clientKey(chosen);
}

/** `1.2.3.4:5678` and `[2001:db8::1]:443` as some proxies write them; a bare address as it is. */
function stripPort(entry: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  if (v4WithPort) return v4WithPort[1]!;
  return entry.length > 0 && entry.length <= 64 ? entry : null;
}

function clientKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
  return address || 'unknown';
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [withoutZone = ''] = address.split('%');
  let text = withoutZone.toLowerCase();
  const embedded = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (embedded) {
    const [a, b, c, d] = embedded[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -embedded[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group || '0', 16).toString(16));
}
