import type { LedgerResource } from '../ledger/types.js';
import type { BlockSchema, Ledger, PluginContext, PluginMeta } from './common.js';
import type { Host } from './host.js';
import type { SshConnector } from './ssh.js';

/** A fleet host handed to `provision`, with its plugin fields already validated by `hostSchema`. */
/** One distinct machine the run needs. Provisioned once, used by many trials. */
export interface FleetHost {
  /** Unique within the plan: the spec host name, plus the matrix values that shaped it. */
  readonly id: string;
  /** Spec host name (`hosts.<name>`). */
  readonly name: string;
  readonly cloud: string;
  /** Plugin fields with matrix values substituted (no `cloud`/`reuse`). */
  readonly config: Readonly<Record<string, unknown>>;
  /** How the host's link is shaped, as its cloud declared it (`CloudPlugin.linkShaping`); absent when unshaped. */
  readonly shaping?: LinkShaping;
}

/**
 * The rate limits of a host's link, as its cloud declares them
 * (`CloudPlugin.linkShaping`), so the plan can show them and say when no
 * trial measures a shaped direction, whatever the cloud's field names.
 */
export interface LinkShaping {
  /** Limit of what the host sends. */
  readonly egress?: ShapedRate;
  /** Limit of what the host receives. */
  readonly ingress?: ShapedRate;
}

/** One rate limit of `LinkShaping`. */
export interface ShapedRate {
  readonly bitsPerSecond: number;
  /** The host field that sets it, below `hosts.<name>` (`link.rate`): plan messages name `hosts.<name>.<field>`. */
  readonly field: string;
  /** The value as the spec wrote it (`100mbit`). */
  readonly written: string;
}

export interface HostRequest<C> extends FleetHost {
  readonly config: C & Readonly<Record<string, unknown>>;
}

export interface ProvisionContext extends PluginContext {
  /** Every resource must be recorded here *before* it is created (`track`). */
  readonly ledger: Ledger;
  /**
   * Connect a provisioned machine as a `Host` over SSH (the engine's
   * transport: host keys always verified, retries while it boots). Bound to
   * this call's signal and logger.
   */
  readonly connectSsh: SshConnector;
}

export type TeardownContext = PluginContext;

export interface CleanupFilter {
  /** Only resources of this run. */
  readonly runId?: string;
  /** Only resources created more than this many milliseconds ago. */
  readonly olderThanMs?: number;
  /** Report, do not delete. */
  readonly dryRun?: boolean;
  /**
   * Run ids still running on this machine, whatever their runs folder (each
   * run keeps a copy of its `run.lock` where every sweep looks): never touch
   * their resources; list them in `CleanupReport.spared`.
   */
  readonly excludeRunIds?: readonly string[];
}

export interface CleanupReport {
  /** Resources found (and deleted unless `dryRun`). */
  readonly found: readonly LedgerResource[];
  /** Resources that could not be deleted, with the reason. */
  readonly failed: readonly { readonly resource: LedgerResource; readonly error: string }[];
  /**
   * Optional: resources found but left alone because their run id is in
   * `excludeRunIds` (a run still in progress on this machine), each with
   * `data.runId`, so `netbench cleanup` can say which live run holds them.
   */
  readonly spared?: readonly LedgerResource[];
}

/**
 * A cloud plugin makes machines. The engine calls, in this order:
 *
 * 1. `preflight` (optional) once per run before anything is created: check
 *    credentials, privileges, quotas. Throwing stops the run with nothing made.
 * 2. `provision` once per run with every fleet host of this cloud; calls for
 *    different clouds run in parallel. It records each resource in the ledger
 *    *before* creating it. If it throws, whatever the ledger holds is torn down.
 * 3. `admitPeers` (optional) once, after every cloud has provisioned, when the
 *    run has hosts on other clouds: open this cloud's tool ports and ICMP to
 *    them (their addresses were unknown while clouds provisioned in parallel).
 * 4. `teardown` once per recorded resource, in reverse ledger order, every one
 *    attempted even when others fail (errors are collected); or, when the
 *    plugin has `teardownMany`, once per run of its consecutive entries. It must be
 *    idempotent: a resource that is already gone is success. It must work from
 *    the ledger entry alone, in a fresh process (`netbench cleanup`): no
 *    closures from `provision`.
 * 5. `cleanup` (optional) finds leftovers by their run-id naming when no
 *    ledger exists (`netbench cleanup --all`).
 */
export interface CloudPlugin<C = Record<string, unknown>> extends PluginMeta {
  readonly kind: 'cloud';
  /** Strict zod object for the host fields this cloud accepts (besides `cloud` and `reuse`). */
  readonly hostSchema: BlockSchema<C>;
  /**
   * True when this cloud's hosts are machines that exist outside any run
   * (static SSH machines), not made per run: two runs at once would share
   * them, so `netbench plan --shards` keeps each in one shard.
   */
  readonly fixedHosts?: boolean;
  /**
   * True when this cloud's hosts run on the machine netbench runs on
   * (network namespaces, containers), so a trial's two ends share its CPUs:
   * `plan` then warns about unpinned trials between them on a machine of few
   * CPUs (see `ToolPlugin.placement`).
   */
  readonly sharesMachineCpus?: boolean;
  /**
   * Optional: the rate limits a host's fields put on its link (the local
   * lab's and Docker's `link.rate`, `link.ingressRate`; the cloud kit's
   * `linkRateShaping` reads that shape). Called while planning, once per
   * distinct fleet host, with its validated fields; pure, no I/O. The plan
   * keeps the answer as `FleetHost.shaping`: `netbench plan` shows it and
   * warns when no trial sends bulk traffic the shaped way. Undefined: the
   * host is not rate-limited. Throwing refuses the plan, naming the plugin.
   */
  linkShaping?(config: C): LinkShaping | undefined;
  preflight?(requests: readonly HostRequest<C>[], ctx: PluginContext): Promise<void>;
  /** Returns one `Host` per request, in the same order. */
  provision(requests: readonly HostRequest<C>[], ctx: ProvisionContext): Promise<Host[]>;
  /**
   * Optional: let this run's hosts on *other* clouds (and static machines)
   * reach this cloud's hosts on the tool ports and ICMP — the cross-cloud and
   * on-prem ↔ cloud scenarios. Called once after every cloud's `provision`
   * succeeded, before any tool is prepared, with the peers' addresses. Works
   * from `ctx.ledger` (this cloud's entries of this run); any rule that is a
   * resource of its own is tracked there first. Throwing fails provisioning
   * (everything is torn down).
   */
  admitPeers?(peers: readonly PeerHost[], ctx: ProvisionContext): Promise<void>;
  /**
   * Optional: give back the `Host`s an earlier process of this same run
   * provisioned (a staged run's next `--stage`, `netbench run --resume` after
   * a crash), rebuilt from `ctx.ledger` alone (this cloud's entries of this
   * run; no closures from `provision` survive a process). Each host must be
   * verified to still be the machine that was provisioned (a namespace that
   * still exists, an SSH host key that still matches) before it is returned,
   * and described exactly as `provision` described it (address, labels,
   * installer): samples of a staged run are keyed like those of a run in
   * one invocation. Creates nothing on the cloud; it records only what it opens for this
   * process (a connection), as `provision` would. Throwing (a host gone or changed)
   * stops the invocation before any trial runs; the ledger still lists what
   * exists, so `--stage teardown` or `netbench cleanup` removes it. A cloud
   * without `reattach` cannot keep hosts between invocations.
   */
  reattach?(requests: readonly HostRequest<C>[], ctx: ProvisionContext): Promise<Host[]>;
  teardown(resource: LedgerResource, ctx: TeardownContext): Promise<void>;
  /**
   * Optional: delete several of this cloud's resources in one call. The
   * engine hands it a run of consecutive pending ledger entries of this
   * plugin, newest first (the order it would call `teardown` in), and records
   * one outcome per resource: resolve to an array of the same length and
   * order, `undefined` where the resource is gone (deleted now or already),
   * the error where it could not be deleted. The plugin knows which of its
   * resources depend on which: it may delete at once what does not depend on
   * each other, and let one deletion take another resource with it (a
   * namespace its veth), but reports a resource gone only once it is. The
   * rules of `teardown` hold: every resource attempted even when others fail,
   * idempotent, from the entries alone. The whole call gets one
   * `teardownTimeout`; if it throws, times out or resolves to anything else,
   * the engine calls `teardown` for each of the resources instead.
   */
  teardownMany?(resources: readonly LedgerResource[], ctx: TeardownContext): Promise<readonly (Error | undefined)[]>;
  cleanup?(filter: CleanupFilter, ctx: PluginContext): Promise<CleanupReport>;
  /**
   * Optional: what the hosts of this cloud will cost, from a dated price table
   * shipped with the plugin (overridable). Pure: no API calls. Shown by
   * `netbench plan`; `--max-cost` refuses to start above the total.
   */
  estimateCost?(requests: readonly HostRequest<C>[], usage: CostUsage): CostEstimate;
  /**
   * Optional facts for `netbench doctor` about what this machine or account
   * supports (privileges, kernel features, credentials). Must create nothing.
   */
  diagnose?(ctx: PluginContext, input?: DiagnoseInput<C>): Promise<DiagnosticCheck[]>;
  /**
   * Optional: the regions, zones and machine types this plugin offers in
   * pickers (the desktop wizard). A dated list shipped with the plugin: pure,
   * no API calls, and cheap (no cloud SDK loaded). Names outside it stay valid.
   */
  catalog?(): CloudCatalog;
}

/** A host of this run on another cloud, as `admitPeers` sees it. */
export interface PeerHost {
  /** Fleet id. */
  readonly id: string;
  readonly cloud: string;
  /** Addresses its traffic may come from: external first when it has one, then internal. */
  readonly addresses: readonly string[];
}

/** What a cloud offers in pickers; see `CloudPlugin.catalog`. */
export interface CloudCatalog {
  /** When the list was compiled (ISO date): clouds add regions and types every year. */
  readonly date: string;
  readonly regions: readonly { readonly name: string; readonly zones: readonly string[] }[];
  readonly machineTypes: readonly {
    readonly name: string;
    readonly vcpus?: number;
    readonly memoryGib?: number;
    /** e.g. `general purpose`, `network optimized`. */
    readonly family?: string;
    /** The cloud's documented maximum egress of this type (all flows together), where the cloud states it. */
    readonly egressGbps?: number;
  }[];
  /**
   * The cloud's documented network limits that a measurement may run into
   * (a single flow's cap, internet egress, tracked flows): results can be
   * compared against them ("4.9 Gbit/s — the single-flow cap"). Each names
   * where it applies and the page that states it.
   */
  readonly networkLimits?: readonly NetworkLimit[];
}

/** One documented network limit of a cloud (`CloudCatalog.networkLimits`). */
export interface NetworkLimit {
  /** `single-flow`: one TCP/UDP 5-tuple; `egress`: all of a VM's outbound traffic; `flows`: tracked connections. */
  readonly kind: 'single-flow' | 'egress' | 'internet-egress' | 'flows';
  readonly value: number;
  readonly unit: 'Gbit/s' | 'flows';
  /** When it applies, in the cloud's words (`instances not in the same cluster placement group`). */
  readonly applies: string;
  /** The cloud's documentation page stating it. */
  readonly source: string;
}

/** What `netbench doctor` asks a cloud's `diagnose` about. */
export interface DiagnoseInput<C = Record<string, unknown>> {
  /**
   * True when the user asked about this cloud (`netbench doctor --cloud X`):
   * the plugin may call its cloud's APIs (credentials, identity, quotas).
   * Otherwise (plain `netbench doctor`) it must make no network calls.
   */
  readonly online?: boolean;
  /** This cloud's hosts in a plan (`netbench doctor --cloud X SPEC`), e.g. for quota headroom. */
  readonly requests?: readonly HostRequest<C>[];
}

/** What the plan will do with the hosts, for cost estimation. */
export interface CostUsage {
  /** Seconds each fleet host is expected to exist (provisioning + measuring + teardown), by fleet id. */
  readonly hostSeconds: Readonly<Record<string, number>>;
  /**
   * Traffic the trials send between hosts. `bitsPerSecond` is the tool's
   * target rate when it has one; otherwise the cloud assumes the machine
   * type's bandwidth cap (the worst case for egress).
   */
  readonly flows: readonly {
    readonly from: string;
    readonly to: string;
    readonly seconds: number;
    readonly bitsPerSecond?: number;
  }[];
}

export interface CostItem {
  /** e.g. `n1-standard-4 in us-west1 (2 hosts)`, `egress us-west1 → europe-west1`. */
  readonly description: string;
  readonly quantity: number;
  /** `instance-hour`, `GB`, ... */
  readonly unit: string;
  readonly unitPriceUsd: number;
  readonly usd: number;
}

export interface CostEstimate {
  readonly usd: number;
  readonly items: readonly CostItem[];
  /** Date of the price table used (ISO), so users know how fresh it is. */
  readonly priceTableDate: string;
  readonly notes?: readonly string[];
}

/** One line of `netbench doctor`. */
export interface DiagnosticCheck {
  readonly name: string;
  readonly ok: boolean;
  /** What was found (a version, a reason). */
  readonly detail: string;
  /** What to do when not ok. */
  readonly fix?: string;
  /** A failed check that only limits some features (e.g. no netem) is a warning. */
  readonly severity?: 'error' | 'warning';
}
