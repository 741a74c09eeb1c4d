// The `TrialRun` the engine would hand a tool plugin's `run`, built from a
// benchmark block for two test hosts (a `twoHostLab`, or any client/server
// pair): the block goes through the plugin's own schema and `trials`, and
// `check` runs on both hosts, as in a real run's plan and prepare phases.
import type { Host } from '../plugin/host.js';
import type { ServerHandle, ToolInfo, ToolPlugin, TrialParams, TrialRun } from '../plugin/tool.js';
import { testTrialContext } from './test-trial-context.js';
import type { TwoHostLab } from './two-host-lab.js';

export interface LabTrialOptions {
  /** Which of the block's trials, in `trials` order (e.g. 1 for the reverse of `direction: both`). Default 0. */
  readonly index?: number;
  /** The address the client targets. Default the lab's `serverIp` (`silentIp` for loss paths, `127.0.0.1` for a refused connection). */
  readonly target?: string;
  /** From the plugin's `serve`, when the test started one. */
  readonly serverHandle?: ServerHandle;
  /** What `check` found on the client; given, `check` is not run there (e.g. reuse one slow check across tests). */
  readonly clientInfo?: ToolInfo;
  /** What `check` found on the server; given, `check` is not run there. */
  readonly serverInfo?: ToolInfo;
  /** Default `t0001`, `t0002`, … in call order within this process, so raw file names never collide. */
  readonly id?: string;
}

/** The hosts a trial runs between: a `TwoHostLab`, or any client and server with the server's address. */
export type LabHosts = Pick<TwoHostLab, 'client' | 'server' | 'serverIp'>;

let trialCount = 0;

/** Plan and prepare one trial of `block` for `plugin` between the lab's client and server. */
export async function labTrial<P, T extends TrialParams = TrialParams>(
  plugin: ToolPlugin<P, T>,
  lab: LabHosts,
  block: Readonly<Record<string, unknown>>,
  options: LabTrialOptions = {},
): Promise<TrialRun<T>> {
  const index = options.index ?? 0;
  const specs = plugin.trials(plugin.schema.parse(block));
  const spec = specs[index];
  if (!spec) throw new Error(`labTrial: ${plugin.name} gives ${specs.length} trial(s) for ${JSON.stringify(block)}; there is no index ${index}`);
  const [clientInfo, serverInfo] = await Promise.all([
    options.clientInfo ?? check(plugin, lab.client, 'client', spec.params),
    options.serverInfo ?? check(plugin, lab.server, 'server', spec.params),
  ]);
  trialCount += 1;
  return {
    id: options.id ?? `t${String(trialCount).padStart(4, '0')}`,
    test: spec.test,
    params: spec.params,
    client: lab.client,
    server: lab.server,
    target: options.target ?? lab.serverIp,
    ...(options.serverHandle ? { serverHandle: options.serverHandle } : {}),
    clientInfo,
    serverInfo,
    attempt: 0,
  };
}

async function check<P>(plugin: ToolPlugin<P>, host: Host, role: 'client' | 'server', params: TrialParams): Promise<ToolInfo> {
  const { ctx, dispose } = testTrialContext();
  try {
    return await plugin.check(host, { runId: ctx.runId, runDir: ctx.runDir, signal: ctx.signal, log: ctx.log, roles: [role], trials: [params] });
  } finally {
    dispose();
  }
}
