/** IPv4 arithmetic for the lab's one subnet. */

export interface Subnet {
  /** Network address as an unsigned 32-bit number. */
  readonly network: number;
  readonly prefix: number;
  /** Broadcast address. */
  readonly broadcast: number;
  readonly text: string;
}

const OCTET_RE = /^(0|[1-9]\d{0,2})$/;

export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!OCTET_RE.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** `10.213.0.0/24`; host bits must be zero; prefixes 8..30 leave room for hosts. */
export function parseSubnet(text: string): Subnet | undefined {
  const [address, prefixText, ...rest] = text.split('/');
  if (address === undefined || prefixText === undefined || rest.length > 0 || !/^\d{1,2}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  const network = parseIpv4(address);
  if (network === undefined || prefix < 8 || prefix > 30) return undefined;
  const size = 2 ** (32 - prefix);
  if (network % size !== 0) return undefined;
  return { network, prefix, broadcast: network + size - 1, text: `${formatIpv4(network)}/${prefix}` };
}

const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'];

/** The lab's addresses must be private (RFC 1918), so they can never be mistaken for a real host. */
export function isPrivateSubnet(subnet: Subnet): boolean {
  return PRIVATE_RANGES.some((range) => {
    const outer = parseSubnet(range)!;
    return subnet.prefix >= outer.prefix && subnet.network >= outer.network && subnet.broadcast <= outer.broadcast;
  });
}

/** True when `address` is a usable host address of `subnet` (not network, not broadcast). */
export function isHostAddress(subnet: Subnet, address: number): boolean {
  return address > subnet.network && address < subnet.broadcast;
}
