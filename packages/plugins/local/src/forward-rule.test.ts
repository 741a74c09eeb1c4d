import { describe, expect, it } from 'vitest';
import plugin from './index.js';
import { bridgedFramesFiltered, findForwardRules } from './forward-rule.js';
import { bridgeName, runTag } from './naming.js';
import { runCommand } from './run-command.js';
import { hostRun, request, testRun } from './test-support/lab.js';

// Where Docker has made iptables see bridged frames (br_netfilter with
// bridge-nf-call-iptables = 1, FORWARD policy DROP), the lab adds an ACCEPT
// rule for its own bridge, in the ledger, and teardown removes it. Elsewhere
// it adds none. Either way the namespaces must reach each other.
describe('local lab under bridge netfilter', () => {
  it('adds a FORWARD rule for its bridge exactly when bridged frames are filtered, and tears it down', async () => {
    const run = testRun();
    const bridge = bridgeName(runTag(run.ctx.runId));
    try {
      const hosts = await plugin.provision([request('a'), request('b')], run.ctx);
      if (hosts[0]!.labels.isolation !== 'netns') return; // no root: loopback hosts, no bridge
      const filtered = await bridgedFramesFiltered();
      const rules = (await findForwardRules()).filter((r) => r.id === bridge);
      expect(rules).toHaveLength(filtered ? 1 : 0);
      expect(run.ctx.ledger.entries.some((e) => e.resource.type === 'forward-rule' && e.resource.id === bridge)).toBe(filtered);
      await hostRun(hosts[0]!, ['ping', '-c', '1', '-W', '2', hosts[1]!.internalIp]);
    } finally {
      expect(await run.teardown(plugin)).toEqual([]);
      run.dispose();
    }
    expect((await findForwardRules()).filter((r) => r.id === bridge)).toEqual([]);
    const listed = await runCommand(['iptables', '-S', 'FORWARD']);
    expect(listed.stdout).not.toContain(bridge);
  }, 60_000);
});
