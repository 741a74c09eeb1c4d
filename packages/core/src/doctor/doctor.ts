import { readFile } from 'node:fs/promises';
import type { DiagnosticCheck, HostRequest, Logger, PluginContext } from '@netbench/plugin-api';
import { NetbenchError, PluginError, processHost, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { planSpec } from '../api/plan-spec.js';
import type { PluginResolver } from '../registry/types.js';

export interface DoctorOptions {
  registry: PluginResolver;
  /** Install missing tools with each tool plugin's `install` (Debian/Ubuntu). */
  install?: boolean;
  signal?: AbortSignal;
  log?: Logger;
  /** Only this cloud, asked online (`doctor --cloud aws`): credentials, identity, quota headroom. */
  cloud?: string;
  /** With `cloud`: the spec whose hosts on that cloud the quota check counts. */
  spec?: { file: string; sets?: readonly string[] };
}

export interface DoctorReport {
  /** False when any check of severity `error` failed. */
  readonly ok: boolean;
  readonly checks: readonly DiagnosticCheck[];
}

const MIN_NODE = [22, 12] as const;
const quiet: Logger = { debug() {}, info() {}, warn() {} };

/** What this machine can do: Node, privileges, each cloud plugin's facts, each tool's version and build features. */
export async function doctor(options: DoctorOptions): Promise<DoctorReport> {
  const ctx: PluginContext = {
    runId: 'doctor',
    runDir: process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    log: options.log ?? quiet,
  };
  if (options.cloud !== undefined) return cloudDoctor(options.cloud, options, ctx);
  const checks: DiagnosticCheck[] = [nodeCheck(), await privilegeCheck()];

  // A plugin that fails to load or to diagnose is one failed line, not a failed doctor.
  const failure = (name: string, error: unknown): DiagnosticCheck => ({ name, ok: false, detail: message(error), fix: 'reinstall the plugin package' });

  for (const descriptor of options.registry.list('cloud')) {
    try {
      const cloud = await options.registry.get('cloud', descriptor.name);
      if (!cloud?.diagnose) continue;
      for (const check of await cloud.diagnose(ctx, { online: false })) checks.push({ ...check, name: `${descriptor.name}: ${check.name}` });
    } catch (error) {
      checks.push(failure(`cloud ${descriptor.name}`, error));
    }
  }

  const here = processHost({ id: 'localhost', name: 'localhost', cloud: 'local', internalIp: '127.0.0.1' });
  for (const descriptor of options.registry.list('tool')) {
    let tool;
    try {
      tool = await options.registry.get('tool', descriptor.name);
    } catch (error) {
      checks.push(failure(`tool ${descriptor.name}`, error));
      continue;
    }
    if (!tool) continue;
    // No plan here: this machine may run either end, of any trial.
    checks.push(
      await toolCheck(
        descriptor.name,
        async () => tool.check(here, { ...ctx, roles: ['client', 'server'], trials: [] }),
        options.install && tool.install ? async () => tool.install!(here, ctx) : undefined,
      ),
    );
  }
  return { ok: checks.every((c) => c.ok || c.severity === 'warning'), checks };
}

/** `doctor --cloud X [--spec S]`: one cloud's online checks, against the plan's hosts on it when a spec is given. */
async function cloudDoctor(name: string, options: DoctorOptions, ctx: PluginContext): Promise<DoctorReport> {
  const prefix = (check: DiagnosticCheck) => ({ ...check, name: `${name}: ${check.name}` });
  let checks: DiagnosticCheck[];
  try {
    const cloud = await options.registry.get('cloud', name);
    if (!cloud) {
      checks = [{ name: `cloud ${name}`, ok: false, detail: 'not installed', fix: `netbench plugins add ${name}` }];
    } else if (!cloud.diagnose) {
      checks = [{ name: `cloud ${name}`, ok: true, severity: 'warning', detail: 'this plugin has no diagnostics' }];
    } else {
      const requests = options.spec
        ? (await planSpec({ file: options.spec.file, sets: options.spec.sets, registry: options.registry })).plan.fleet
            .filter((host) => host.cloud === name)
            .map((host): HostRequest<unknown> => ({ ...host, config: host.config }))
        : undefined;
      checks = (await cloud.diagnose(ctx, { online: true, ...(requests ? { requests } : {}) })).map(prefix);
    }
  } catch (error) {
    if (error instanceof NetbenchError && !(error instanceof PluginError)) throw error;
    checks = [{ name: `cloud ${name}`, ok: false, detail: message(error) }];
  }
  return { ok: checks.every((c) => c.ok || c.severity === 'warning'), checks };
}

async function toolCheck(
  name: string,
  check: () => Promise<{ version: string; features: Readonly<Record<string, boolean | string>> }>,
  install: (() => Promise<void>) | undefined,
): Promise<DiagnosticCheck> {
  const describe = (info: { version: string; features: Readonly<Record<string, boolean | string>> }, installed = false) => {
    const features = Object.entries(info.features).map(([k, v]) => (v === true ? k : v === false ? `no ${k}` : `${k}=${v}`));
    return { name: `tool ${name}`, ok: true, detail: `${installed ? 'installed ' : ''}${info.version}${features.length ? ` (${features.join(', ')})` : ''}` };
  };
  try {
    return describe(await check());
  } catch (error) {
    const missing = error instanceof ToolMissingError;
    if (missing && install) {
      try {
        await install();
        return describe(await check(), true);
      } catch (installError) {
        return { name: `tool ${name}`, ok: false, detail: `install failed: ${message(installError)}`, fix: 'install it with your package manager' };
      }
    }
    return {
      name: `tool ${name}`,
      ok: false,
      detail: message(error),
      // Installed but refused by this machine (a kernel without pktgen, no root): a warning, as local's missing netem is;
      // the tool still runs elsewhere, and a run here fails in prepare saying the same.
      ...(error instanceof UnsupportedError ? { severity: 'warning' as const } : {}),
      fix: missing ? 'run `netbench doctor --install` (Debian/Ubuntu, as root)' : undefined,
    };
  }
}

function nodeCheck(): DiagnosticCheck {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return { name: 'node', ok, detail: `v${process.versions.node}`, fix: ok ? undefined : `netbench needs Node >= ${MIN_NODE.join('.')}` };
}

async function privilegeCheck(): Promise<DiagnosticCheck> {
  const root = process.getuid?.() === 0;
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const capEff = /^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1];
  const netAdmin = capEff !== undefined && (BigInt(`0x${capEff}`) & (1n << 12n)) !== 0n;
  return {
    name: 'privileges',
    ok: netAdmin,
    severity: 'warning',
    detail: `${root ? 'root' : 'not root'}, CAP_NET_ADMIN ${netAdmin ? 'present' : 'absent'}`,
    fix: netAdmin ? undefined : 'run as root for network namespaces and link shaping; without it local hosts fall back to loopback',
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
