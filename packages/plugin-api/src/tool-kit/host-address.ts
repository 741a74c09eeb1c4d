import { isIP } from 'node:net';
import { NetbenchError } from '../errors/index.js';
import { z } from '../plugin/zod.js';

// RFC 1123 labels (underscores tolerated, as some internal DNS has them); never a leading '-'.
const LABEL_RE = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
const CIDR4_RE = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/;

/**
 * Whether `value` is an IP address (IPv4, IPv6, with an optional zone) or a
 * DNS host name. Anything else — a leading `-` above all — is refused, so an
 * address can never be read as an option by the tool it is passed to.
 */
export function isHostAddress(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (name.length === 0 || name.length > 253) return false;
  return name.split('.').every((label) => LABEL_RE.test(label));
}

/** Throws a clear error unless `value` is an address (see `isHostAddress`). Call before building argv. */
export function assertHostAddress(value: string, what = 'address'): string {
  if (!isHostAddress(value)) throw new NetbenchError(`${what} ${JSON.stringify(value)} is not an IP address or host name`);
  return value;
}

/** An IPv4 CIDR block such as 203.0.113.7/32: octets ≤ 255, prefix ≤ 32. */
export function isIpv4Cidr(value: string): boolean {
  const match = CIDR4_RE.exec(value);
  return match !== null && isIP(match[1]!) === 4 && Number(match[2]) <= 32;
}

/** A spec field holding a host name or IP address. */
export const hostAddressSchema = z.string().refine(isHostAddress, { message: 'expected an IP address or a host name (letters, digits, dots, hyphens; not starting with -)' });

/** A spec field holding an IPv4 CIDR block. */
export const ipv4CidrSchema = z.string().refine(isIpv4Cidr, { message: 'expected an IPv4 CIDR such as 203.0.113.7/32' });
