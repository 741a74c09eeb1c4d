// Helpers for cloud plugins: host keys from the console, this machine's public address, the run's login key,
// cost from a price table, netbench errors for classified cloud failures, settling parallel creates, cleanup's delete loop.

export { allOrFirstError } from './all-or-first-error.js';
// A network namespace's congestion control must be in the root namespace's allowed list: clouds making namespaces here extend it, ledgered.
export {
  ALLOWED_CONGESTION_CONTROL_ID_RE,
  ALLOWED_CONGESTION_CONTROL_RESOURCE,
  allowCongestionControls,
  allowedCongestionControls,
  disallowCongestionControl,
  teardownAllowedCongestionControl,
} from './allowed-congestion-control.js';
export { classifiedError } from './classified-error.js';
export type { HostCommand } from './congestion-control.js';
// TCP congestion control as a host setting and a label read back from the host.
export {
  applyVmCongestionControl,
  availableCongestionControls,
  CONGESTION_CONTROL_LABEL,
  CONGESTION_CONTROL_RE,
  congestionControlSchema,
  readCongestionControl,
  setCongestionControl,
  settleVmCongestionControl,
  unavailableCongestionControl,
  vmCongestionControlSchema,
} from './congestion-control.js';
export { parseConsoleHostKeys } from './console-host-keys.js';
// The host's CPU count as a label (`cpu_count`), read once at provision.
export { CPU_COUNT_LABEL, readCpuCount } from './cpu-count.js';
export type { HostKeyRecord } from './host-key-record.js';
// The SSH host key a cloud host was provisioned with, kept in the run folder for `reattach`.
export { recordedHostKey, recordHostKey } from './host-key-record.js';
export type { ChildQdisc, LinkQueue } from './link-queue.js';
// The queue of a shaped link (tbf burst/limit/latency, htb with a child qdisc): schema fields, tc argv, labels, kernel probes.
export {
  CHILD_QDISCS,
  checkLinkQueue,
  DEFAULT_TBF_LATENCY,
  defaultBurstBytes,
  LINK_QDISCS,
  linkQueueIssues,
  linkQueueLabels,
  linkQueueShape,
  missingChildQdiscs,
  parseSize,
  qdiscProblem,
  rateQueueCommands,
  SIZE_RE,
} from './link-queue.js';
export type { LinkConfig } from './link-schema.js';
// The `link` host field of clouds that shape with tc here (the local lab, Docker): schema, its `linkShaping` declaration, tc argv, labels.
export { LINK_NETEM_FIELDS, linkNetemFields, linkRateShaping, linkSchema } from './link-schema.js';
export { linkEgressCommands, linkIngressCommands, linkLabels } from './link-tc.js';
export { DURATION_RE, formatBits, PERCENT_RE, parseDuration, parsePercent, parseRate, RATE_RE, rateProblem } from './link-units.js';
export type { LoginKey, LoginKeyType } from './login-key.js';
export { loginKey, openSshPublicKey } from './login-key.js';
export { loadPriceFile, priceFilePath } from './price-file.js';
export type { ProcState } from './process-identity.js';
// A process told apart from one that reused its pid (start time): sshd leftovers, a run's lock.
export { isSameProcessAlive, processStartTimeSync, processState } from './process-identity.js';
export { detectPublicAddress } from './public-address.js';
export type { CommandResult } from './run-command.js';
// Local machine helpers for clouds that manage resources on this machine (the local lab, Docker).
export { mustRun, runCommand } from './run-command.js';
export type { PricedSite, RegionalPriceTable, TableCostModel } from './table-cost.js';
export { estimateTableCost } from './table-cost.js';
export { teardownEach } from './teardown-each.js';
