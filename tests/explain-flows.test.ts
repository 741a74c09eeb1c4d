// Synchronized-flows trials read the route and MTU toward every peer
// (docs/explain.md): a mesh between 1500- and 1400-MTU lab hosts is told it
// has an MTU mismatch, a mesh of equal MTUs is not
// (tests/scenarios/explain/mesh-mtu.yaml).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

const spec = join(import.meta.dirname, 'scenarios/explain/mesh-mtu.yaml');

describe('the route and MTU of a synchronized-flows trial', () => {
  it("a mesh and a load test with a 1400-MTU host get mtu-mismatch, with every host's interface toward each peer", async () => {
    const home = tempHome('netbench-e2e-explain-flows-');
    const runs = join(home, 'runs');
    const result = await runCli(['run', spec, '--runs-dir', runs, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    let run;
    try {
      expect(result.code, result.stderr).toBe(0);
      run = readResults(onlyRunDir(runs)).run;
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    const explainOf = (name: string) => {
      const trial = run.trials.find((t) => t.benchmarkName === name)!;
      expect(trial.status, trial.error).toBe('succeeded');
      return trial.explain!;
    };
    const mesh = explainOf('mesh');
    const mismatch = mesh.diagnoses.find((d) => d.rule === 'mtu-mismatch');
    expect(mismatch, JSON.stringify(mesh.diagnoses)).toMatchObject({ evidence: { a: 1500, b: 1500, small: 1400 } });
    // Each host read one route per peer: two peers each in a mesh of three.
    const hosts = mesh.hosts as unknown as readonly { host: string; routes?: { peer: string; dev: string; mtu?: number }[] }[];
    expect(hosts.map((h) => h.host).sort()).toEqual(['a', 'b', 'small']);
    for (const h of hosts) {
      expect(h.routes, h.host).toHaveLength(2);
      for (const r of h.routes!) expect(r.mtu, `${h.host} → ${r.peer}`).toBe(h.host === 'small' ? 1400 : 1500);
    }
    expect(result.stdout).toMatch(/the ends' MTUs differ \(.*small 1400/);
    // A latency-under-load trial: several flows between one pair, one route per host.
    const load = explainOf('load');
    expect(
      load.diagnoses.find((d) => d.rule === 'mtu-mismatch'),
      JSON.stringify(load.diagnoses),
    ).toMatchObject({ evidence: { a: 1500, small: 1400 } });
    expect((load.hosts as unknown as readonly { routes?: unknown[] }[]).map((h) => h.routes?.length)).toEqual([1, 1]);
    expect(explainOf('mesh-same').diagnoses.find((d) => d.rule === 'mtu-mismatch')).toBeUndefined();
    expect((explainOf('mesh-same').hosts as unknown as readonly { routes?: unknown[] }[]).every((h) => h.routes?.length === 1)).toBe(true);
  });
});
