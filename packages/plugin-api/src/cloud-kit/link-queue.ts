/**
 * The queue of a shaped link (the local lab's and Docker's `link`): what
 * decides bufferbloat once a rate is set. tbf (the default) takes `burst` and
 * exactly one of `limit` (bytes that may wait) or `latency` (how long a
 * packet may wait), as tc requires; `qdisc: htb` shapes with an htb class
 * (`burst` is its burst) and may put a `child` queueing discipline under it
 * (pfifo/bfifo with `limit`, or fq_codel, cake, ... where the kernel has them).
 * Values are parsed here into numbers, so tc only receives numbers formatted here.
 */
import { release } from 'node:os';
import { z } from '../plugin/zod.js';
import { parseDuration } from './link-units.js';
import { runCommand } from './run-command.js';

/** `64kb`, `1500b`, `1mb`, `32kbit`, or a bare number of bytes: tc's size units (k = 1024 bytes). */
export const SIZE_RE = /^(\d+(?:\.\d+)?)\s*(b|k|kb|m|mb|g|gb|kbit|mbit|gbit)?$/i;
const SIZE_FACTORS: Readonly<Record<string, number>> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  kbit: 128,
  mbit: 128 * 1024,
  gbit: 128 * 1024 ** 2,
};

/** Bytes, or undefined when the text is not a size. */
export function parseSize(text: string): number | undefined {
  const match = SIZE_RE.exec(text.trim());
  if (!match) return undefined;
  const value = Math.round(Number(match[1]) * SIZE_FACTORS[(match[2] ?? 'b').toLowerCase()]!);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Child qdiscs netbench can put under an htb class. `limit`: bytes for bfifo, packets for the others. */
export const CHILD_QDISCS = ['pfifo', 'bfifo', 'fq_codel', 'cake', 'pie', 'fq', 'sfq', 'codel'] as const;
export type ChildQdisc = (typeof CHILD_QDISCS)[number];

const size = z.string().refine((s) => parseSize(s) !== undefined, { message: 'expected a size such as 64kb, 1500b or 1mb (k = 1024 bytes)' });
const duration = z.string().refine((s) => parseDuration(s) !== undefined, { message: 'expected a duration such as 10ms, 250us or 0.5s' });

/**
 * What enforces `rate`: tbf (default) or an htb class (with an optional
 * `child`), or an AQM: cake (its own shaper, `cake bandwidth`), or fq_codel,
 * pie or fq under an htb class at the rate (as `qdisc: htb` with that child).
 */
export const LINK_QDISCS = ['tbf', 'htb', 'cake', 'fq_codel', 'pie', 'fq'] as const;
export type LinkQdisc = (typeof LINK_QDISCS)[number];
/** The AQM choices that are an htb class with this child. */
const HTB_AQM: ReadonlySet<string> = new Set(['fq_codel', 'pie', 'fq']);

/** The queue fields of `link`, to spread into a cloud's link schema; check them with `checkLinkQueue`. */
export const linkQueueShape = {
  /** `tbf` (default), `htb`, or an AQM: `cake`, `fq_codel`, `pie`, `fq`. */
  qdisc: z
    .enum(LINK_QDISCS)
    .optional()
    .describe(
      'Queueing discipline that enforces rate: tbf (default), htb, or an AQM: cake (its own shaper), fq_codel, pie or fq (under an htb class at the rate). AQMs are refused where the kernel lacks them.',
    ),
  /** tbf bucket / htb class burst. */
  burst: size.optional().describe('Bucket size (tbf burst, htb class burst), e.g. 64kb. Default: what the rate drains in 4 ms, at least 64 KiB.'),
  /** tbf: bytes that may wait (exclusive with latency); htb child: bytes for bfifo, packets (a number) for the others. */
  limit: z
    .union([size, z.int().positive()])
    .optional()
    .describe("Queue size: tbf bytes (e.g. 1mb; exclusive with latency), or the htb child's limit (bytes for bfifo, packets for the others)."),
  /** tbf only: how long a packet may wait; the queue then holds rate × latency. */
  latency: duration.optional().describe('tbf only: longest wait in the queue (e.g. 200ms); exclusive with limit. Default 50ms when neither is set.'),
  /** htb only: the qdisc under the class. */
  child: z.enum(CHILD_QDISCS).optional().describe('htb only: qdisc under the rate class (pfifo, bfifo, fq_codel, cake, ...; refused where the kernel lacks it).'),
};

export interface LinkQueue {
  readonly rate?: string;
  readonly qdisc?: LinkQdisc;
  readonly burst?: string;
  readonly limit?: string | number;
  readonly latency?: string;
  readonly child?: ChildQdisc;
}

type Issue = { readonly path: string[]; readonly message: string };

/** Problems of a link's queue fields (for a schema's superRefine): each names the field. */
export function linkQueueIssues(link: LinkQueue): Issue[] {
  const issues: Issue[] = [];
  const set = (['qdisc', 'burst', 'limit', 'latency', 'child'] as const).filter((field) => link[field] !== undefined);
  if (set.length > 0 && link.rate === undefined) issues.push({ path: [set[0]!], message: `${set.join(', ')} shape the queue of a rate limit: set rate too` });
  if ((link.qdisc ?? 'tbf') === 'tbf') {
    if (link.limit !== undefined && link.latency !== undefined) issues.push({ path: ['latency'], message: 'tbf takes limit or latency, not both (tc: one decides the other)' });
    if (typeof link.limit === 'number') issues.push({ path: ['limit'], message: 'tbf limit is bytes: write a size such as 1mb or 100kb' });
    if (link.child !== undefined) issues.push({ path: ['child'], message: 'child needs qdisc: htb (tbf takes no child here)' });
  } else if (link.qdisc === 'cake') {
    for (const field of ['burst', 'limit', 'latency', 'child'] as const) {
      if (link[field] !== undefined) issues.push({ path: [field], message: `cake shapes and queues by itself (cake bandwidth RATE): drop ${field}` });
    }
  } else if (HTB_AQM.has(link.qdisc!)) {
    if (link.latency !== undefined) issues.push({ path: ['latency'], message: `latency is tbf's; ${link.qdisc} manages its own queue delay` });
    if (link.child !== undefined) issues.push({ path: ['child'], message: `qdisc: ${link.qdisc} is the queue under the rate already; child goes with qdisc: htb` });
    if (typeof link.limit === 'string') issues.push({ path: ['limit'], message: `${link.qdisc} limit is packets: write a number such as 1000` });
  } else {
    if (link.latency !== undefined) issues.push({ path: ['latency'], message: "latency is tbf's; with htb set the child's limit instead" });
    if (link.limit !== undefined && link.child === undefined) issues.push({ path: ['limit'], message: "with htb, limit is the child qdisc's: set child (e.g. pfifo or bfifo)" });
    if (link.child === 'bfifo' && typeof link.limit === 'number') issues.push({ path: ['limit'], message: 'bfifo limit is bytes: write a size such as 100kb' });
    if (link.child !== undefined && link.child !== 'bfifo' && typeof link.limit === 'string')
      issues.push({ path: ['limit'], message: `${link.child} limit is packets: write a number such as 100` });
    if (link.child === 'cake' && link.limit !== undefined) issues.push({ path: ['limit'], message: 'cake has no packet limit here; drop limit' });
  }
  return issues;
}

/** For `.superRefine` on a link schema. */
export function checkLinkQueue(link: LinkQueue, ctx: { addIssue(issue: { code: 'custom'; path: string[]; message: string }): void }): void {
  for (const issue of linkQueueIssues(link)) ctx.addIssue({ code: 'custom', ...issue });
}

/** Bucket size when `burst` is unset: what the rate drains in a 4 ms tick, at least one 64 KiB GSO packet, or the shaper falls short of the rate. */
export function defaultBurstBytes(bitsPerSecond: number): number {
  return Math.max(Math.ceil(bitsPerSecond / 8 / 250), 64 * 1024);
}

/** tbf's latency when the spec gives neither limit nor latency (bounds the queue tbf itself adds). */
export const DEFAULT_TBF_LATENCY = '50ms';

/**
 * tc commands that limit `dev` to `bitsPerSecond` with the link's queue.
 * `tc` is the command up to the object (`['tc']`, `['tc', '-n', NETNS]`);
 * `parent` puts the shaper under another qdisc's class (netem's `1:1`) with
 * handles from 10: on, else it is the root (handle 1:).
 */
export function rateQueueCommands(tc: readonly string[], dev: string, bitsPerSecond: number, link: LinkQueue, parent?: string): string[][] {
  const burst = link.burst !== undefined ? parseSize(link.burst)! : defaultBurstBytes(bitsPerSecond);
  const [handle, child] = parent === undefined ? ['1', '10'] : ['10', '20'];
  const at = parent === undefined ? ['root', 'handle', `${handle}:`] : ['parent', parent, 'handle', `${handle}:`];
  const qdisc = [...tc, 'qdisc', 'add', 'dev', dev];
  if ((link.qdisc ?? 'tbf') === 'tbf') {
    const queue =
      typeof link.limit === 'string'
        ? ['limit', String(parseSize(link.limit)!)]
        : ['latency', link.latency !== undefined ? `${parseDuration(link.latency)!}us` : DEFAULT_TBF_LATENCY];
    return [[...qdisc, ...at, 'tbf', 'rate', `${bitsPerSecond}bit`, 'burst', String(burst), ...queue]];
  }
  if (link.qdisc === 'cake') return [[...qdisc, ...at, 'cake', 'bandwidth', `${bitsPerSecond}bit`]];
  const under = link.qdisc !== undefined && HTB_AQM.has(link.qdisc) ? (link.qdisc as ChildQdisc) : link.child;
  const commands = [
    [...qdisc, ...at, 'htb', 'default', '1'],
    [
      ...tc,
      'class',
      'add',
      'dev',
      dev,
      'parent',
      `${handle}:`,
      'classid',
      `${handle}:1`,
      'htb',
      'rate',
      `${bitsPerSecond}bit`,
      'ceil',
      `${bitsPerSecond}bit`,
      'burst',
      String(burst),
    ],
  ];
  if (under !== undefined) commands.push([...qdisc, 'parent', `${handle}:1`, 'handle', `${child}:`, ...childArgs(under, link.limit)]);
  return commands;
}

function childArgs(kind: ChildQdisc, limit: string | number | undefined): string[] {
  if (limit === undefined) return [kind];
  return [kind, 'limit', String(typeof limit === 'string' ? parseSize(limit)! : limit)];
}

/** Sample labels for the queue (only what the spec set; the qdisc always once a rate is set). */
export function linkQueueLabels(link: LinkQueue | undefined): Record<string, string> {
  if (link?.rate === undefined) return {};
  const labels: Record<string, string> = { link_qdisc: link.qdisc ?? 'tbf' };
  if (link.burst !== undefined) labels.link_burst = link.burst;
  if (link.limit !== undefined) labels.link_limit = String(link.limit);
  if (link.latency !== undefined) labels.link_latency = link.latency;
  if (link.child !== undefined) labels.link_child = link.child;
  return labels;
}

const probes = new Map<string, Promise<string | undefined>>();

/**
 * Whether this kernel has the qdisc `kind`: tried on the loopback of a
 * throw-away namespace (`unshare --net`, gone with the process), so probing
 * creates nothing. Undefined when it works, else tc's complaint. Needs root.
 */
export function qdiscProblem(kind: string): Promise<string | undefined> {
  let probe = probes.get(kind);
  if (!probe) {
    probe = runCommand(['unshare', '--net', 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', kind], { timeoutMs: 10_000 }).then((result) =>
      result.code === 0 ? undefined : (result.stderr.trim() || result.stdout.trim()).split('\n')[0] || `tc exited with ${result.code ?? 'a signal'}`,
    );
    probes.set(kind, probe);
  }
  return probe;
}

/**
 * A clear refusal for every host whose `child` qdisc this kernel lacks
 * (`hosts`: id and link), or undefined when all are there. `cloud` prefixes the message.
 */
export async function missingChildQdiscs(cloud: string, hosts: readonly { readonly id: string; readonly link?: LinkQueue }[]): Promise<string | undefined> {
  const missing: string[] = [];
  for (const host of hosts) {
    // An AQM as the link's qdisc (cake, fq_codel, pie, fq) needs its module as much as a child does.
    const wanted = [
      ...(host.link?.qdisc !== undefined && host.link.qdisc !== 'tbf' && host.link.qdisc !== 'htb' ? [['qdisc', host.link.qdisc] as const] : []),
      ...(host.link?.child !== undefined ? [['child', host.link.child] as const] : []),
    ];
    for (const [field, kind] of wanted) {
      const problem = await qdiscProblem(kind);
      if (problem !== undefined) missing.push(`host ${host.id} (link.${field}: ${kind}: ${problem})`);
    }
  }
  if (missing.length === 0) return undefined;
  return (
    `${cloud}: ${missing.join('; ')}: this kernel (${release()}) has no such queueing discipline. ` +
    "To fix: load its module (modprobe sch_NAME), run on a kernel built with it (scripts/kernel-vm.sh runs the lab in a VM with Debian's kernel), or choose a queue this kernel has (tbf, or htb with pfifo/bfifo)."
  );
}
