/**
 * What to tell a user about a PKB flag the translation did not use, beyond
 * "ignored". Flags not listed get a generic note.
 */
export const FLAG_NOTES: Readonly<Record<string, string>> = {
  gce_network_tier: 'applies to GCP VMs only, and this config has none',
  gce_network_name: 'applies to GCP VMs only, and this config has none',
  project: 'applies to GCP VMs only, and this config has none',
  placement_group_style: 'applies to made VMs only, and this config has none',
  ping_also_run_using_external_ip: "is a flag of PKB's ping benchmark",
  run_processes:
    'ignored: PKB runs several benchmark runs (each with its own VMs) at once; netbench provisions each host once and runs trials one at a time (options.concurrency runs trials at once)',
  bigquery_table: 'ignored: publish to BigQuery with a `publish: [{ type: bigquery, ... }]` entry in the netbench spec',
  bq_project: 'ignored: publish to BigQuery with a `publish: [{ type: bigquery, ... }]` entry in the netbench spec',
  os_type: 'ignored: netbench hosts run the current Ubuntu LTS unless a plugin field says otherwise',
  image: "ignored: set the image with the cloud plugin's host fields after `netbench convert`",
  owner: 'ignored: netbench records the user running it',
  temp_dir: 'ignored: runs go to ~/.netbench/runs (options.runsDir)',
  use_vpn: 'read: on two GCP VM groups it becomes a Cloud VPN (vpcGroup + vpn on the hosts); elsewhere internal addresses are measured directly',
  benchmarks: 'ignored: the config file names the benchmark',
};

/** Benchmark config keys PKB knows that netbench reads (or deliberately reports). */
export const CONFIG_KEYS = new Set([
  'name',
  'description',
  'flags',
  'vm_groups',
  'flag_matrix',
  'flag_matrix_defs',
  'flag_matrix_filters',
  'flag_zip',
  'flag_zip_defs',
  'container_specs',
  'container_cluster',
  'container_registry',
  'vpn_service',
  'vpn_service_gateway_count',
]);

/** Keys that mark a mapping as a PKB benchmark config when its name is not one netbench knows. */
export const CONFIG_MARKERS = ['vm_groups', 'flags', 'flag_matrix', 'flag_matrix_defs', 'flag_matrix_filters', 'flag_zip', 'flag_zip_defs', 'container_cluster', 'container_specs'];
