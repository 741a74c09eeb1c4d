import { access, constants } from 'node:fs/promises';
import type { HostRequest } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import { availableCongestionControls, linkNetemFields, missingChildQdiscs, runCommand, unavailableCongestionControl } from '@netbench/plugin-api/cloud-kit';
import { type LocalCapabilities, localCapabilities, type NamespaceCapabilities, namespaceCapabilities } from './capabilities.js';
import type { LocalHostConfig } from './host-schema.js';
import { type LabPlan, planLab } from './lab-plan.js';
import { SSHD } from './sshd.js';

const PRIVILEGE_FIX = 'run netbench as root (sudo netbench ...) or give it CAP_NET_ADMIN and CAP_SYS_ADMIN';

const describe = (requests: readonly HostRequest<LocalHostConfig>[], fields: (r: HostRequest<LocalHostConfig>) => string[]) =>
  requests
    .map((r) => ({ id: r.id, fields: fields(r) }))
    .filter((r) => r.fields.length > 0)
    .map((r) => `host ${r.id} (${r.fields.join(', ')})`);

const linkFields = (r: HostRequest<LocalHostConfig>) =>
  Object.entries(r.config.link ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k]) => `link.${k}`);

/**
 * Everything that can be known before creating anything: the plan is
 * consistent, and the kernel and privileges allow what each host asks for.
 * Throws `UnsupportedError` naming the host, the field and what to do.
 */
export async function checkRequests(runId: string, requests: readonly HostRequest<LocalHostConfig>[]): Promise<{ plan: LabPlan; caps: NamespaceCapabilities }> {
  const plan = planLab(runId, requests);
  const caps = await namespaceCapabilities();

  if (!caps.netns) {
    // A Kubernetes Job's pod (plan --emit k8s-job sets it), CI: a lab on loopback would measure the wrong thing and succeed.
    if (process.env['NETBENCH_LOCAL_REQUIRE_NETNS'] === '1') {
      throw new UnsupportedError(
        `local: network namespaces are unavailable here (${caps.detail.netns}) and NETBENCH_LOCAL_REQUIRE_NETNS=1 forbids falling back to 127.0.0.1. ` +
          `To fix: ${PRIVILEGE_FIX} (in a Kubernetes pod: securityContext.capabilities.add [NET_ADMIN, SYS_ADMIN], in a namespace whose Pod Security admits it), or unset NETBENCH_LOCAL_REQUIRE_NETNS to accept a loopback lab.`,
      );
    }
    const shaped = describe(requests, linkFields);
    if (shaped.length > 0) {
      throw new UnsupportedError(
        `local: ${shaped.join('; ')} asks for link shaping, which needs network namespaces, and they are unavailable here: ${caps.detail.netns}. ` +
          `Without them local hosts fall back to 127.0.0.1 with no shaping and no isolation. To fix: ${PRIVILEGE_FIX}, or remove link from these hosts.`,
      );
    }
    const cc = describe(requests, (r) => (r.config.congestionControl !== undefined ? ['congestionControl'] : []));
    if (cc.length > 0) {
      throw new UnsupportedError(
        `local: ${cc.join('; ')} sets TCP congestion control, which needs a network namespace of its own (${caps.detail.netns}); on loopback it would change this machine's default. To fix: ${PRIVILEGE_FIX}, or remove congestionControl.`,
      );
    }
    const sshd = describe(requests, (r) => (r.config.sshd ? ['sshd: true'] : []));
    if (sshd.length > 0) {
      throw new UnsupportedError(`local: ${sshd.join('; ')} asks for an sshd, which needs a network namespace (${caps.detail.netns}). To fix: ${PRIVILEGE_FIX}.`);
    }
    return { plan, caps };
  }

  // Only shaped links need the qdisc probes.
  if (requests.some((r) => r.config.link !== undefined)) await checkShaping(requests, await localCapabilities());
  await checkCongestionControl(requests);
  if (requests.some((r) => r.config.sshd)) {
    const hosts = describe(requests, (r) => (r.config.sshd ? ['sshd: true'] : [])).join('; ');
    const sshdOk = await access(SSHD, constants.X_OK).then(
      () => true,
      () => false,
    );
    const keygen = await runCommand(['ssh-keygen', '-?']);
    const keyscan = await runCommand(['ssh-keyscan']);
    const missing = [sshdOk ? '' : SSHD, keygen.code === 127 ? 'ssh-keygen' : '', keyscan.code === 127 ? 'ssh-keyscan' : ''].filter(Boolean);
    if (missing.length > 0) {
      throw new UnsupportedError(
        `local: ${hosts} asks for an sshd, but ${missing.join(', ')} is missing. To fix: install OpenSSH (apt-get install openssh-server openssh-client).`,
      );
    }
  }
  return { plan, caps };
}

/** The kernel has the qdiscs the links ask for: netem for delay, jitter, loss, reorder, duplicate and corrupt; tbf for a rate; htb, AQMs and child qdiscs. */
async function checkShaping(requests: readonly HostRequest<LocalHostConfig>[], caps: LocalCapabilities): Promise<void> {
  if (!caps.netem) {
    const wanting = describe(requests, (r) => linkNetemFields(r.config.link).map((f) => `link.${f}`));
    if (wanting.length > 0) {
      throw new UnsupportedError(
        `local: ${wanting.join('; ')} needs the netem queueing discipline, but ${caps.detail.netem}. ` +
          'To fix: load it (modprobe sch_netem; on Ubuntu install linux-modules-extra-$(uname -r)), use a kernel built with CONFIG_NET_SCH_NETEM, ' +
          "run the lab in a VM with Debian's kernel (scripts/kernel-vm.sh run -- scripts/netbench run SPEC), " +
          'or remove delay, jitter, loss, reorder, duplicate and corrupt from the spec (link.rate alone works, with tbf).',
      );
    }
  }
  if (!caps.tbf) {
    const rated = describe(requests, (r) =>
      (r.config.link?.qdisc ?? 'tbf') !== 'tbf' ? [] : (['rate', 'ingressRate'] as const).filter((f) => r.config.link?.[f] !== undefined).map((f) => `link.${f}`),
    );
    if (rated.length > 0) {
      throw new UnsupportedError(
        `local: ${rated.join('; ')} needs the kernel's tbf queueing discipline (sch_tbf): ${caps.detail.tbf}. To fix: load sch_tbf (modprobe sch_tbf), use qdisc: htb, or remove the rate.`,
      );
    }
  }
  await checkQueues(requests, caps);
}

/** `link.qdisc: htb` (and fq_codel, pie, fq: an htb class) needs sch_htb; an AQM qdisc or a `link.child` needs its own, probed on a throw-away namespace. */
async function checkQueues(requests: readonly HostRequest<LocalHostConfig>[], caps: LocalCapabilities): Promise<void> {
  if (!caps.htb) {
    // fq_codel, pie and fq queue under an htb class at the rate.
    const htb = describe(requests, (r) => (['htb', 'fq_codel', 'pie', 'fq'].includes(r.config.link?.qdisc ?? '') ? [`link.qdisc: ${r.config.link!.qdisc}`] : []));
    if (htb.length > 0)
      throw new UnsupportedError(
        `local: ${htb.join('; ')} needs the kernel's htb queueing discipline (sch_htb): ${caps.detail.htb}. To fix: load sch_htb (modprobe sch_htb) or use qdisc: tbf.`,
      );
  }
  const missing = await missingChildQdiscs(
    'local',
    requests.map((r) => ({ id: r.id, ...(r.config.link ? { link: r.config.link } : {}) })),
  );
  if (missing !== undefined) throw new UnsupportedError(missing);
}

/** Every requested congestion control must be loaded in this kernel (namespaces share its modules). */
async function checkCongestionControl(requests: readonly HostRequest<LocalHostConfig>[]): Promise<void> {
  const wanting = requests.filter((r) => r.config.congestionControl !== undefined);
  if (wanting.length === 0) return;
  const available = await availableCongestionControls((argv) => runCommand(argv));
  const problems = wanting.flatMap((r) => unavailableCongestionControl(`local: host ${r.id}`, r.config.congestionControl!, available) ?? []);
  if (problems.length > 0) throw new UnsupportedError(problems.join('\n'));
}
