import type { Host, Labels, ToolInfo } from '@netbench/plugin-api';
import type { PlannedTrial } from '../plan/types.js';

export interface TrialLabelInput {
  readonly runId: string;
  readonly specName: string;
  readonly netbenchVersion: string;
  readonly trial: PlannedTrial;
  readonly client: Host;
  readonly server: Host;
  readonly clientInfo: ToolInfo;
  readonly serverInfo: ToolInfo;
}

/**
 * The context labels every sample of a trial carries, so a sample alone says
 * what was measured, where and with what (PKB's sample labels): run and spec,
 * benchmark, tool and test, the matrix cell, every parameter, both hosts'
 * cloud/zone/region/machine type and extra labels, the address type and the
 * tool's version and build features. Parameters win over cell values of the
 * same name, since they are what the tool actually ran with.
 */
export function trialLabels(input: TrialLabelInput): Labels {
  const { trial, client, server, clientInfo, serverInfo } = input;
  const labels: Labels = {
    run_id: input.runId,
    spec: input.specName,
    netbench_version: input.netbenchVersion,
    benchmark: trial.benchmarkName,
    tool: trial.tool,
    test: trial.test,
    ip_type: trial.ip,
    ...hostLabels('client', client),
    ...hostLabels('server', server),
    ...trial.cell,
    ...trial.params,
    [`${trial.tool}_version`]: clientInfo.version,
  };
  if (serverInfo.version !== clientInfo.version) labels[`${trial.tool}_server_version`] = serverInfo.version;
  for (const [feature, value] of Object.entries(clientInfo.features)) labels[`${trial.tool}_${feature}`] = value;
  return labels;
}

function hostLabels(role: 'client' | 'server', host: Host): Labels {
  const labels: Labels = { [`${role}_host`]: host.name, [`${role}_cloud`]: host.cloud };
  if (host.zone) labels[`${role}_zone`] = host.zone;
  if (host.region) labels[`${role}_region`] = host.region;
  if (host.machineType) labels[`${role}_machine_type`] = host.machineType;
  if (host.os) labels[`${role}_os`] = host.os;
  for (const [key, value] of Object.entries(host.labels ?? {})) labels[`host_${role}_${key}`] = value;
  return labels;
}
