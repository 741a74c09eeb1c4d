import { PassThrough } from 'node:stream';
import type { ExecResult, Host, HostProcess } from '../plugin/host.js';
import type { ToolInfo, ToolPlugin, TrialRun } from '../plugin/tool.js';
import { type ConformanceCheck, check, errorText, fail } from './conformance-check.js';
import { parseExample } from './schema-checks.js';
import { testTrialContext } from './test-trial-context.js';

/** The address the check gives both hosts: fping, for one, would read it as "targets from file /etc/passwd". */
export const INJECTED_ADDRESS = '-f/etc/passwd';

const REFUSED: ExecResult = { stdout: '', stderr: 'conformance: this host runs nothing', code: 2, signal: null, durationMs: 0 };

/** A host whose every address is `address` and that records argv instead of running anything. */
function recordingHost(name: string, address: string, argvs: string[][]): Host {
  return {
    id: name,
    name,
    cloud: 'conformance',
    internalIp: address,
    externalIp: address,
    labels: {},
    async exec(argv) {
      argvs.push([...argv]);
      return REFUSED;
    },
    spawn(argv): HostProcess {
      argvs.push([...argv]);
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const stdin = new PassThrough();
      stdout.end();
      stderr.end(REFUSED.stderr);
      return { stdout, stderr, stdin, exited: Promise.resolve(REFUSED), kill() {} };
    },
  };
}

/** Where `address` reaches an argv as something a tool could parse as options (not after a `--`). */
function optionUses(argv: readonly string[], address: string): number[] {
  const end = argv.indexOf('--');
  return argv.flatMap((arg, i) => (arg.includes(address) && (end === -1 || i < end) ? [i] : []));
}

/**
 * Option injection: every trial of every valid example block is run between
 * two hosts whose addresses are `-f/etc/passwd` and that run nothing (they
 * record argv). The plugin must refuse (an error naming the address) before
 * starting any process, or pass the address only after a `--` that ends the
 * tool's options (a tool that never uses the address passes too). Tools without `--`
 * (netperf, iperf, iperf3) must validate the address (`assertHostAddress`).
 */
export function optionInjectionCheck(plugin: () => ToolPlugin<unknown>, blocks: readonly unknown[]): ConformanceCheck {
  return check(`run refuses a server address that reads as an option (${INJECTED_ADDRESS})`, async () => {
    const tool = plugin();
    const info: ToolInfo = { version: 'conformance', features: {} };
    for (const block of blocks) {
      for (const spec of tool.trials(parseExample(tool.schema, block, 'option injection'))) {
        const argvs: string[][] = [];
        const client = recordingHost('client', INJECTED_ADDRESS, argvs);
        const server = recordingHost('server', INJECTED_ADDRESS, argvs);
        const trial: TrialRun = {
          id: `conformance-${spec.test}`,
          test: spec.test,
          params: spec.params,
          client,
          server,
          target: INJECTED_ADDRESS,
          clientInfo: info,
          serverInfo: info,
          attempt: 0,
          serverHandle: { data: {}, stop: async () => {} },
        };
        const context = testTrialContext(5_000);
        let outcome: unknown;
        try {
          await tool.run(trial, context.ctx);
          outcome = 'resolved';
        } catch (error) {
          outcome = error;
        } finally {
          context.controller.abort();
          context.dispose();
        }
        const what = `trial ${spec.test} ${JSON.stringify(spec.params)}`;
        for (const argv of argvs) {
          if (optionUses(argv, INJECTED_ADDRESS).length > 0) {
            fail(`${what}: the address ${INJECTED_ADDRESS} reached argv where the tool reads options: ${JSON.stringify(argv)}; validate it (assertHostAddress) or put it after --`);
          }
        }
        const reached = argvs.some((argv) => argv.some((arg) => arg.includes(INJECTED_ADDRESS)));
        // A run that never used the address is safe; one that failed before using it must say the address was why.
        if (!reached && outcome instanceof Error && !outcome.message.includes(INJECTED_ADDRESS)) {
          fail(`${what}: run failed, but not because of the address ${INJECTED_ADDRESS}: ${errorText(outcome)}; check the address first`, outcome);
        }
      }
    }
  });
}
