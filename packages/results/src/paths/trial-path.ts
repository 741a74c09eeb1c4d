import type { Scalar } from '@netbench/plugin-api';

/** The `tunnel` label of the plain path (docs/tunnels.md). */
export const PLAIN = 'none';

/**
 * A trial's hosts as tables print them, saying which path it went when the
 * run has tunnels (its samples carry `tunnel`): `a → b via wg`, `a → b (plain)`.
 */
export function trialPath(client: string, server: string, samples: readonly { readonly labels: Readonly<Record<string, Scalar>> }[]): string {
  const tunnel = samples.find((s) => s.labels['tunnel'] !== undefined)?.labels['tunnel'];
  const hosts = `${client} → ${server}`;
  if (tunnel === undefined) return hosts;
  return tunnel === PLAIN ? `${hosts} (plain)` : `${hosts} via ${String(tunnel)}`;
}
