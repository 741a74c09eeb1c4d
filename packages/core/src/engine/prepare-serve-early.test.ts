import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyPlugin, Host } from '@netbench/plugin-api';
import { definePlugin, readLedger } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staticRegistry } from '../registry/static-registry.js';
import labCloud from './__fixtures__/lab-cloud.js';
import { exists, labResources, sweep } from './__fixtures__/lab-leftovers.js';
import { labPlan } from './__fixtures__/lab-plan.js';
import labTool from './__fixtures__/lab-tool.js';
import { EXIT_CODES } from './exit-codes.js';
import { runPlan } from './run-plan.js';

// prepare: a server host's `serve` starts as soon as that host's
// own `check` is done, not once every host's check is. The client's check
// below waits until the server host's serve has begun (bounded, so the old
// order fails the test instead of hanging it).

let root: string;
let runsDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-serve-early-'));
  runsDir = join(root, 'runs');
  process.env['NETBENCH_DB'] = join(root, 'netbench.db');
});
afterEach(async () => {
  await sweep(runsDir);
  await rm(root, { recursive: true, force: true });
});

const GATE_MS = 20_000;

function gatedTool(clientCheck: 'waits-for-serve' | 'fails-after-serve') {
  const order: string[] = [];
  let serveBegan!: () => void;
  const served = new Promise<void>((resolve) => {
    serveBegan = resolve;
  });
  const stopped: string[] = [];
  const tool = definePlugin({
    ...labTool,
    async check(host: Host, ctx) {
      if (host.id === 'a') {
        const gate = new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), GATE_MS).unref());
        order.push(`check a: serve ${await Promise.race([served.then(() => 'had begun' as const), gate])}`);
        if (clientCheck === 'fails-after-serve') throw new Error('tool broken on a');
      }
      return labTool.check(host, ctx);
    },
    async serve(host: Host, info, ctx) {
      order.push(`serve ${host.id}`);
      serveBegan();
      const handle = await labTool.serve!(host, info, ctx);
      return {
        data: handle.data,
        stop: async () => {
          stopped.push(host.id);
          await handle.stop();
        },
      };
    },
  });
  return { tool, order, stopped };
}

describe("prepare starts a host's server once that host is checked", () => {
  it("the server host's serve begins while the client host is still being checked", async () => {
    const { tool, order, stopped } = gatedTool('waits-for-serve');
    const outcome = await runPlan(labPlan({ root, runsDir, trials: [{ mode: 'ok' }] }), {
      registry: staticRegistry([labCloud, tool] as AnyPlugin[]),
      abortGraceMs: 500,
    });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(order).toEqual(['serve b', 'check a: serve had begun']);
    expect(stopped).toEqual(['b']);
  });

  it("a server started while another host's check fails is still stopped, its process gone and in the ledger", async () => {
    const { tool, order, stopped } = gatedTool('fails-after-serve');
    const outcome = await runPlan(labPlan({ root, runsDir, trials: [{ mode: 'ok' }] }), {
      registry: staticRegistry([labCloud, tool] as AnyPlugin[]),
      abortGraceMs: 500,
    });
    expect(outcome.exitCode).not.toBe(EXIT_CODES.ok);
    expect(order).toEqual(['serve b', 'check a: serve had begun']);
    expect(stopped).toEqual(['b']);
    const ledger = await readLedger(join(outcome.record.runDir, 'ledger.jsonl'));
    expect(ledger.filter((e) => e.phase === 'deleted').length).toBe(ledger.filter((e) => e.phase === 'created').length);
    for (const resource of await labResources(outcome.record.runDir)) expect(exists(resource)).toBe(false);
  });
});

describe("check and serve are told the host's part in the run", () => {
  it("check gets each host's roles and trial parameters; serve gets the parameters of the trials it serves", async () => {
    const seen: string[] = [];
    const tool = definePlugin({
      ...labTool,
      async check(host: Host, ctx) {
        seen.push(`check ${host.id} ${ctx.roles?.join('+')} ${ctx.trials?.map((t) => t['mode']).join(',')}`);
        return labTool.check(host, ctx);
      },
      async serve(host: Host, info, ctx) {
        seen.push(`serve ${host.id} ${ctx.roles?.join('+')} ${ctx.trials?.map((t) => t['mode']).join(',')}`);
        return labTool.serve!(host, info, ctx);
      },
    });
    const outcome = await runPlan(labPlan({ root, runsDir, trials: [{ mode: 'ok' }, { mode: 'sleep', seconds: 0 }] }), {
      registry: staticRegistry([labCloud, tool] as AnyPlugin[]),
      abortGraceMs: 500,
    });
    expect(outcome.exitCode).toBe(EXIT_CODES.ok);
    expect(seen.sort()).toEqual(['check a client ok,sleep', 'check b server ok,sleep', 'serve b server ok,sleep']);
  });
});
