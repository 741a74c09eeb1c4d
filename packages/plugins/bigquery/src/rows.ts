import type { Labels, RunRecord, Sample } from '@netbench/plugin-api';
import { type PkbSample, pkbSample } from '@netbench/plugin-json';

/** One tabledata.insertAll row: `insertId` lets BigQuery drop a re-sent duplicate (best effort, about a minute). */
export interface InsertRow {
  readonly insertId: string;
  readonly json: PkbSample;
}

/**
 * PKB's names for netbench's host labels, added (never overwriting) so the
 * whitepaper's `REGEXP_EXTRACT(labels, r"\|sending_zone:(.*?)\|")` style
 * queries find them: the sender is the client, or the server for
 * `direction: reverse`; `vm_1` is the client and `vm_2` the server.
 */
export function withPkbAliases(labels: Labels): Labels {
  const reverse = labels['direction'] === 'reverse';
  const [from, to] = reverse ? ['server', 'client'] : ['client', 'server'];
  const aliases: Labels = {};
  const alias = (name: string, source: string) => {
    const value = labels[source];
    if (value !== undefined && labels[name] === undefined) aliases[name] = value;
  };
  alias('sending_zone', `${from}_zone`);
  alias('receiving_zone', `${to}_zone`);
  alias('sending_machine_type', `${from}_machine_type`);
  alias('receiving_machine_type', `${to}_machine_type`);
  alias('vm_1_cloud', 'client_cloud');
  alias('vm_2_cloud', 'server_cloud');
  alias('vm_1_zone', 'client_zone');
  alias('vm_2_zone', 'server_zone');
  alias('vm_1_machine_type', 'client_machine_type');
  alias('vm_2_machine_type', 'server_machine_type');
  return { ...labels, ...aliases };
}

/** Samples as PKB-schema rows (the json publisher's PKB shape, plus the label aliases). */
export function insertRows(run: Pick<RunRecord, 'name' | 'owner'>, samples: readonly Sample[]): InsertRow[] {
  return samples.map((sample) => ({
    insertId: sample.sampleId,
    json: pkbSample(run, { ...sample, labels: withPkbAliases(sample.labels) }),
  }));
}
