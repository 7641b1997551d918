/**
 * The addresses a gateway may call from (issue 51): IPv4 or IPv6 addresses and CIDR blocks, read with node:net
 * (isIP and BlockList) rather than by hand, both when an administrator saves them and when a call comes in.
 */
import { BlockList, isIP } from 'node:net';

type Family = 'ipv4' | 'ipv6';

/** An entry as BlockList takes it, or undefined when it is no address nor block. */
function parse(entry: string): { address: string; prefix?: number; family: Family } | undefined {
  const [address = '', prefix, ...rest] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) return { address, family };
  const bits = Number(prefix);
  if (!/^\d{1,3}$/.test(prefix) || bits > (version === 4 ? 32 : 128)) return undefined;
  return { address, prefix: bits, family };
}

function listOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parse(entry);
    if (!parsed) continue;
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

/** The first entry that is no IP address nor CIDR block (BlockList would refuse it), or undefined. */
export function badAddress(entries: readonly string[]): string | undefined {
  for (const entry of entries) {
    const parsed = parse(entry);
    if (!parsed) return entry;
    try {
      listOf([entry]);
    } catch {
      return entry;
    }
  }
  return undefined;
}

/**
 * Whether a call from `address` (a socket's remote address) is one of `allowed`; an empty list allows any. An
 * IPv4 address a dual-stack socket reports as `::ffff:192.0.2.1` is checked as the IPv4 address it is.
 */
export function addressAllowed(allowed: readonly string[], address: string): boolean {
  if (allowed.length === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const version = isIP(plain);
  if (version === 0) return false;
  return listOf(allowed).check(plain, version === 4 ? 'ipv4' : 'ipv6');
}
