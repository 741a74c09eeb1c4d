import { z } from '@netbench/plugin-api';
import { NAME_RE } from '../issues/names.js';

/** `ip: tunnel:NAME` on a benchmark: the client targets the server's address inside tunnel NAME. */
export const TUNNEL_IP_RE = /^tunnel:([A-Za-z0-9_-]+)$/;
export const TUNNEL_NAME_RE = /^[A-Za-z0-9_-]+$/;

export const TUNNEL_TYPES = ['ipsec', 'wireguard', 'openvpn'] as const;
export type TunnelType = (typeof TUNNEL_TYPES)[number];
export type TunnelImplementation = 'kernel' | 'userspace';

/** OpenVPN data-channel ciphers (AEAD, negotiated by `--data-ciphers`). */
export const OPENVPN_CIPHERS = ['AES-128-GCM', 'AES-256-GCM', 'CHACHA20-POLY1305'] as const;
/** strongSwan proposal keywords: `aes128-sha256`, `aes256gcm16-modp2048`, ... (lower case, dash separated). */
const PROPOSAL_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const CIDR24_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.0\/24$/;

const name = z.string().regex(NAME_RE, 'use letters, digits, - and _ only');

/** One `tunnels[]` entry as written in the spec. */
export const tunnelSchema = z
  .strictObject({
    name,
    type: z.enum(TUNNEL_TYPES),
    /** The two hosts (keys of `hosts`); the first gets `.1` of the subnet, the second `.2`. */
    between: z.tuple([name, name], { error: 'expected two host names: [a, b]' }),
    /** ipsec: ESP proposal (`aes128-sha256`); openvpn: data cipher (`AES-256-GCM`); wireguard: fixed (`chacha20poly1305`). */
    cipher: z.string().min(1).optional(),
    /** ipsec only: IKE version (default 2) and IKE proposal (default `aes128-sha256-modp2048`). */
    ike: z.union([z.literal(1), z.literal(2)]).optional(),
    ikeProposal: z.string().regex(PROPOSAL_RE, 'a strongSwan proposal such as aes128-sha256-modp2048').optional(),
    /** MTU of the tunnel interface (default: wireguard 1420, ipsec 1400, openvpn 1400). */
    mtu: z.int().min(576).max(9000).optional(),
    /** `auto` (default): the kernel's data path where the host has it, userspace otherwise. */
    implementation: z.enum(['auto', 'kernel', 'userspace']).default('auto'),
    /** Inner addresses, a /24 (default `10.249.<index>.0/24`). */
    subnet: z.string().regex(CIDR24_RE, 'a /24 such as 10.249.0.0/24').optional(),
    /** UDP port of the tunnel's outer traffic (default: wireguard 51820, openvpn 1194, ipsec 500 for IKE with NAT-T on 4500; another ipsec port P puts NAT-T on P + 1). */
    port: z.int().min(1).max(65534).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.between[0] === t.between[1]) ctx.addIssue({ code: 'custom', path: ['between'], message: `a tunnel joins two different hosts (both are '${t.between[0]}')` });
    if (t.cipher !== undefined) {
      const why = cipherProblem(t.type, t.cipher);
      if (why) ctx.addIssue({ code: 'custom', path: ['cipher'], message: why });
    }
    if (t.type !== 'ipsec' && (t.ike !== undefined || t.ikeProposal !== undefined)) {
      ctx.addIssue({ code: 'custom', path: [t.ike !== undefined ? 'ike' : 'ikeProposal'], message: `only ipsec tunnels have IKE (this one is ${t.type})` });
    }
    if (
      t.subnet !== undefined &&
      CIDR24_RE.exec(t.subnet)!
        .slice(1)
        .some((o) => Number(o) > 255)
    )
      ctx.addIssue({ code: 'custom', path: ['subnet'], message: 'not an IPv4 address' });
  });

export type TunnelSpec = z.output<typeof tunnelSchema>;
export const tunnelsSchema = z.array(tunnelSchema);

function cipherProblem(type: TunnelType, cipher: string): string | undefined {
  if (type === 'wireguard') return cipher === WIREGUARD_CIPHER ? undefined : `wireguard has one cipher, ${WIREGUARD_CIPHER}`;
  if (type === 'openvpn') return (OPENVPN_CIPHERS as readonly string[]).includes(cipher) ? undefined : `openvpn cipher must be one of ${OPENVPN_CIPHERS.join(', ')}`;
  return PROPOSAL_RE.test(cipher) ? undefined : 'an ESP proposal such as aes128-sha256 or aes256gcm16 (lower case, dash separated)';
}

export const WIREGUARD_CIPHER = 'chacha20poly1305';

/** A tunnel with every default filled in, as the engine sets it up. */
export interface ResolvedTunnel {
  readonly name: string;
  readonly type: TunnelType;
  readonly between: readonly [string, string];
  readonly cipher: string;
  readonly ike: 1 | 2;
  readonly ikeProposal: string;
  readonly mtu: number;
  readonly implementation: 'auto' | TunnelImplementation;
  /** Inner addresses of `between[0]` and `between[1]`. */
  readonly addresses: readonly [string, string];
  readonly port: number;
}

const DEFAULT_MTU: Record<TunnelType, number> = { wireguard: 1420, ipsec: 1400, openvpn: 1400 };
const DEFAULT_CIPHER: Record<TunnelType, string> = { wireguard: WIREGUARD_CIPHER, ipsec: 'aes128-sha256', openvpn: 'AES-256-GCM' };
const DEFAULT_PORT: Record<TunnelType, number> = { wireguard: 51820, ipsec: 500, openvpn: 1194 };

/** charon's NAT-T port beside its IKE port: the standard 4500 beside 500, else the next port. */
export const natTraversalPort = (ikePort: number): number => (ikePort === 500 ? 4500 : ikePort + 1);

/**
 * The UDP ports a tunnel end binds on its host (ipsec: IKE and NAT-T), so two
 * tunnels on one host that would collide are refused in the spec.
 */
export function tunnelPorts(type: TunnelType, port: number | undefined): number[] {
  const main = port ?? DEFAULT_PORT[type];
  return type === 'ipsec' ? [main, natTraversalPort(main)] : [main];
}

export function resolveTunnel(spec: TunnelSpec, index: number): ResolvedTunnel {
  const prefix = spec.subnet ? spec.subnet.slice(0, spec.subnet.lastIndexOf('.')) : `10.249.${index % 256}`;
  return {
    name: spec.name,
    type: spec.type,
    between: spec.between,
    cipher: spec.cipher ?? DEFAULT_CIPHER[spec.type],
    ike: spec.ike ?? 2,
    ikeProposal: spec.ikeProposal ?? 'aes128-sha256-modp2048',
    mtu: spec.mtu ?? DEFAULT_MTU[spec.type],
    implementation: spec.implementation,
    addresses: [`${prefix}.1`, `${prefix}.2`],
    port: spec.port ?? DEFAULT_PORT[spec.type],
  };
}
