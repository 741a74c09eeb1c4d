import { existsSync } from 'node:fs';
import { UnsupportedError } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pktgenPlugin } from './plugin.js';

// Two namespaces this file creates (twoHostLab, nbt-pktgen-<pid>…), deleted afterwards. Where the kernel has no
// pktgen (this project's development machine and CI), the check must refuse clearly; where it has (the kernel VM,
// tests/kernel-lab.test.ts runs the plugin there through a spec), a short run is checked against the receiver.
const plugin = pktgenPlugin();
let lab: TwoHostLab;
const context = testTrialContext();
const checkCtx = () => ({ runId: context.ctx.runId, runDir: context.ctx.runDir, signal: AbortSignal.timeout(30_000), log: context.ctx.log, roles: ['client' as const] });

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'pktgen' });
});
afterAll(async () => {
  context.dispose();
  await lab?.close();
});

// The module may be there but not loaded: check loads it. Only after check is /proc/net/pktgen's absence final.
async function available(): Promise<boolean> {
  try {
    await plugin.check(lab.client, checkCtx());
    return true;
  } catch (error) {
    if (error instanceof UnsupportedError) return false;
    throw error;
  }
}

describe('pktgen between two namespaces', () => {
  it('on a kernel without pktgen, check refuses in prepare, naming the module, the kernel and the way out', async ({ skip }) => {
    if (await available()) skip('this kernel has pktgen');
    expect(existsSync('/proc/net/pktgen')).toBe(false);
    const error = await plugin.check(lab.client, checkCtx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedError);
    expect((error as Error).message).toMatch(
      /pktgen is not available on host .*: its kernel \(.+\) has no \/proc\/net\/pktgen\/pgctrl and `modprobe pktgen` did not load it .*CONFIG_NET_PKTGEN.*scripts\/kernel-vm\.sh/,
    );
    // The receiving end needs no pktgen.
    await expect(plugin.check(lab.server, { ...checkCtx(), roles: ['server' as const] })).resolves.toMatchObject({ features: { receiver: true } });
  });

  it('where the kernel has pktgen: 20000 packets, every one counted by the receiver', async ({ skip }) => {
    if (!(await available())) skip('this kernel has no pktgen (see the test above)');
    const t = testTrialContext();
    try {
      const { samples } = await plugin.run(await labTrial(plugin, lab, { count: 20000 }), t.ctx);
      const value = (metric: string) => samples.find((s) => s.metric === metric)!.value;
      expect(value('Packets Sent')).toBe(20000);
      expect(value('Packet Rate')).toBeGreaterThan(1000);
      expect(value('Packets Received')).toBeGreaterThanOrEqual(20000 * 0.99);
    } finally {
      t.dispose();
    }
  });
});
