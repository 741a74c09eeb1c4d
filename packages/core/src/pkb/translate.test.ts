import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { translatePkb } from './translate.js';

function translate(yaml: string, iperfTool: 'iperf' | 'iperf3' = 'iperf3') {
  const t = translatePkb(parse(yaml) as Record<string, unknown>, { name: 'test', iperfTool });
  const doc = t.document as {
    hosts: Record<string, Record<string, unknown>>;
    benchmarks: Record<string, unknown>[];
    matrix?: Record<string, unknown>;
    options?: Record<string, unknown>;
  };
  const warnings = t.problems.warnings.map((w) => `${w.path.join('.')}: ${w.message}`);
  const issues = t.problems.issues.map((w) => `${w.path.join('.')}: ${w.message}`);
  return { ...doc, warnings, issues, notes: t.notes, origins: t.origins };
}

describe('VMs and zones', () => {
  test('no vm_groups: the benchmark default groups with PKB default_single_core on GCP', () => {
    const t = translate('ping:');
    expect(t.hosts).toEqual({
      vm_1: { cloud: 'gcp', machineType: 'n1-standard-1', zone: 'us-central1-a' },
      vm_2: { cloud: 'gcp', machineType: 'n1-standard-1', zone: 'us-central1-a' },
    });
    expect(t.issues).toEqual([]);
  });

  test('zones cycle over the made VMs: one zone puts both VMs there, two give one each', () => {
    expect(Object.values(translate('ping: { flags: { zones: us-east1-b } }').hosts).map((h) => h.zone)).toEqual(['us-east1-b', 'us-east1-b']);
    expect(Object.values(translate('iperf: { flags: { zone: [us-east4-b, us-east4-c] } }').hosts).map((h) => h.zone)).toEqual(['us-east4-b', 'us-east4-c']);
    expect(Object.values(translate('ping: { flags: { zones: "a-b1-c", extra_zones: "d-e2-f" } }').hosts).map((h) => h.zone)).toEqual(['a-b1-c', 'd-e2-f']);
  });

  test('the zone and machine_type flags override vm_spec; flags.cloud overrides a group cloud with a warning', () => {
    const t = translate(`
netperf:
  flags: { zones: us-west1-b, machine_type: n1-standard-8, cloud: GCP }
  vm_groups:
    vm_1: { cloud: AWS, vm_spec: { GCP: { machine_type: n1-standard-2, zone: us-central1-a } } }
`);
    expect(t.hosts.vm_1).toEqual({ cloud: 'gcp', machineType: 'n1-standard-8', zone: 'us-west1-b' });
    expect(t.warnings).toContain("netperf.vm_groups.vm_1.cloud: flags.cloud (GCP) overrides this group's cloud, as in PKB");
  });

  test('groups sort by name; vm_count makes numbered hosts; static VMs come first and use no zone', () => {
    const t = translate(`
netperf:
  flags: { zones: "us-west1-a,us-west1-b,us-west1-c" }
  vm_groups:
    servers: { vm_count: 2 }
    clients:
      vm_count: 2
      static_vms:
        - { ip_address: 203.0.113.9, user_name: me, ssh_private_key: ~/.ssh/id_ed25519, internal_ip: 10.0.0.9, ssh_port: 2222 }
`);
    expect(Object.keys(t.hosts)).toEqual(['clients_1', 'clients_2', 'servers_1', 'servers_2', 'vm_1', 'vm_2']);
    expect(t.hosts.clients_1).toEqual({ cloud: 'static', address: '203.0.113.9', user: 'me', key: '~/.ssh/id_ed25519', internalAddress: '10.0.0.9', port: 2222 });
    expect(['clients_2', 'servers_1', 'servers_2', 'vm_1', 'vm_2'].map((h) => t.hosts[h]?.zone)).toEqual(['us-west1-a', 'us-west1-b', 'us-west1-c', 'us-west1-a', 'us-west1-b']);
    // A public static address may reach the GCP hosts' ports (PKB opens them to it).
    expect(t.hosts.servers_1?.allowFrom).toEqual(['203.0.113.9/32']);
    expect(t.benchmarks.map((b) => `${String(b.client)}>${String(b.server)}:${String(b.ip)}`)).toEqual(['clients_1>clients_2:external']);
    expect(t.warnings).toContain("netperf.vm_groups: PKB's netperf uses the first two VMs (clients_1 → clients_2); the others are not used");
  });

  test('GCP network tier, existing network, placement, custom machine type; AWS region becomes a zone', () => {
    const t = translate(`
iperf:
  flags: { gce_network_tier: STANDARD, gce_network_name: shared, placement_group_style: cluster }
  vm_groups:
    vm_1: { cloud: AWS, vm_spec: { AWS: { machine_type: c5.large, zone: us-east-2 } } }
    vm_2: { vm_spec: { GCP: { machine_type: { cpus: 4, memory: 7.5GiB }, zone: us-central1-c, boot_disk_size: 50 } } }
`);
    expect(t.hosts.vm_1).toEqual({ cloud: 'aws', machineType: 'c5.large', zone: 'us-east-2a', placement: 'cluster' });
    expect(t.hosts.vm_2).toEqual({ cloud: 'gcp', machineType: 'custom-4-7680', zone: 'us-central1-c', networkTier: 'standard', network: 'shared', placement: 'compact' });
    expect(t.warnings).toContain("iperf.vm_groups.vm_1.vm_spec.AWS.zone: AWS zone 'us-east-2' is a region; netbench needs an availability zone and uses us-east-2a");
  });
});

test('Azure: location zones, proximity placement, per-host cidr; same-location VMs reach internal addresses', () => {
  const t = translate(`
netperf:
  flags: { placement_group_style: cluster, netperf_benchmarks: TCP_RR }
  vm_groups:
    vm_1: { cloud: Azure, cidr: 10.1.0.0/16, vm_spec: { Azure: { machine_type: Standard_D4s_v5, zone: eastus2-1 } } }
    vm_2: { cloud: Azure, cidr: 10.1.0.0/16, vm_spec: { Azure: { machine_type: Standard_D4s_v5, zone: eastus2-2 } } }
`);
  expect(t.hosts.vm_1).toEqual({ cloud: 'azure', machineType: 'Standard_D4s_v5', zone: 'eastus2-1', cidr: '10.1.0.0/16', placement: 'proximity' });
  expect(t.benchmarks.map((b) => b.ip)).toEqual(['internal']);
});

describe('which addresses PKB measures (ip_addresses, default INTERNAL since January 2024)', () => {
  const ips = (yaml: string) => translate(yaml).benchmarks.map((b) => `${String(b.client)}>${String(b.server)}:${String(b.ip)}`);

  test('GCP to GCP: internal by default; REACHABLE and BOTH add external first; ip_addresses narrows it', () => {
    expect(ips('netperf: { flags: { netperf_benchmarks: TCP_RR } }')).toEqual(['vm_1>vm_2:internal']);
    expect(ips('netperf: { flags: { netperf_benchmarks: TCP_RR, ip_addresses: REACHABLE } }')).toEqual(['vm_1>vm_2:external', 'vm_1>vm_2:internal']);
    expect(ips('netperf: { flags: { netperf_benchmarks: TCP_RR, ip_addresses: BOTH } }')).toEqual(['vm_1>vm_2:external', 'vm_1>vm_2:internal']);
    expect(ips('netperf: { flags: { netperf_benchmarks: TCP_RR, ip_addresses: INTERNAL } }')).toEqual(['vm_1>vm_2:internal']);
    expect(ips('iperf: { flags: { ip_addresses: EXTERNAL } }')).toEqual(['vm_1>vm_2:external', 'vm_2>vm_1:external']);
  });

  test('different clouds, static machines and separate cidrs reach external addresses only (warned: PKB would fail); a VPN joins them', () => {
    const cross = translate('iperf: { vm_groups: { vm_1: { cloud: AWS, vm_spec: { AWS: { zone: us-east-1a } } } } }');
    expect(cross.benchmarks.map((b) => `${String(b.client)}>${String(b.server)}:${String(b.ip)}`)).toEqual(['vm_1>vm_2:external', 'vm_2>vm_1:external']);
    expect(cross.warnings).toContain(
      "iperf: vm_1 cannot reach the internal address of vm_2: PKB's default ip_addresses (INTERNAL, since January 2024) would fail there; netbench measures the external address — set ip_addresses: EXTERNAL (or BOTH) to say so",
    );
    expect(translate('iperf: { flags: { ip_addresses: EXTERNAL }, vm_groups: { vm_1: { cloud: AWS, vm_spec: { AWS: { zone: us-east-1a } } } } }').warnings).toEqual([]);
    expect(ips('netperf: { flags: { netperf_benchmarks: TCP_RR }, vm_groups: { vm_1: { static_vms: [{ ip_address: 192.168.0.1 }] } } }')).toEqual(['vm_1>vm_2:external']);
    const cidrs = 'vm_groups: { vm_1: { cidr: 10.0.1.0/24 }, vm_2: { cidr: 192.168.1.0/24 } }';
    expect(ips(`iperf: { ${cidrs} }`)).toEqual(['vm_1>vm_2:external', 'vm_2>vm_1:external']);
    expect(ips(`ping: { flags: { use_vpn: True }, ${cidrs} }`)).toEqual(['vm_1>vm_2:internal']);
    // AWS VPCs are regional.
    const aws = (a: string, b: string) => `netperf: { flags: { netperf_benchmarks: TCP_RR, cloud: AWS, zone: [${a}, ${b}] } }`;
    expect(ips(aws('us-east-1a', 'us-east-1b'))).toEqual(['vm_1>vm_2:internal']);
    expect(ips(aws('us-east-1a', 'eu-west-1a'))).toEqual(['vm_1>vm_2:external']);
  });

  test('install_packages: false (static VM or vm_spec) is options.install: false, without a warning when every VM says so', () => {
    const both = translate(`
ping:
  vm_groups:
    vm_1: { static_vms: [{ ip_address: 10.0.0.1, internal_ip: 10.0.0.1, install_packages: false }] }
    vm_2: { static_vms: [{ ip_address: 10.0.0.2, internal_ip: 10.0.0.2, install_packages: false }] }
`);
    expect(both.options).toEqual({ install: false });
    expect(both.hosts.vm_1).toEqual({ cloud: 'static', address: '10.0.0.1', internalAddress: '10.0.0.1' });
    expect(both.warnings).toEqual([]);
    expect(both.issues).toEqual([]);
    expect(both.origins.find(['options', 'install'])).toEqual({ pkb: ['ping', 'vm_groups', 'vm_1', 'static_vms', 0, 'install_packages'], exact: true });
    // true is PKB's default and netbench's: nothing to write.
    const on = translate(
      'ping: { vm_groups: { vm_1: { static_vms: [{ ip_address: 10.0.0.1, internal_ip: 10.0.0.1, install_packages: true }] }, vm_2: { static_vms: [{ ip_address: 10.0.0.2, internal_ip: 10.0.0.2 }] } } }',
    );
    expect(on.options).toBeUndefined();
    expect(on.warnings).toEqual([]);
    // Only one VM: netbench's setting is per run, and says what that means for the other.
    const one = translate('ping: { vm_groups: { vm_1: { vm_spec: { GCP: { install_packages: false } } } } }');
    expect(one.options).toEqual({ install: false });
    expect(one.warnings).toEqual([
      'ping.vm_groups.vm_1.vm_spec.GCP.install_packages: install_packages: false is one setting per run in netbench (options.install): tools are not installed on vm_2 either',
    ]);
    expect(translate('ping: { vm_groups: { vm_1: { static_vms: [{ ip_address: 10.0.0.1, install_packages: no thanks }] } } }').issues).toEqual([
      'ping.vm_groups.vm_1.static_vms.0.install_packages: install_packages is true or false',
    ]);
  });

  test("a static VM's one address is what PKB calls external; netbench's static plugin calls it internal", () => {
    const onprem = 'vm_groups: { vm_1: { static_vms: [{ ip_address: 203.0.113.5, user_name: me }] } }';
    expect(ips(`iperf: { ${onprem} }`)).toEqual(['vm_1>vm_2:external', 'vm_2>vm_1:internal']);
    const ping = translate(`ping: { flags: { ping_also_run_using_external_ip: True }, ${onprem} }`);
    expect(ping.benchmarks).toEqual([
      { tool: 'ping', client: 'vm_1', server: 'vm_2', ip: 'external', direction: 'forward', count: 100, interval: 1 },
      { tool: 'ping', client: 'vm_2', server: 'vm_1', ip: 'internal', direction: 'forward', count: 100, interval: 1 },
    ]);
    expect(ping.hosts.vm_2?.allowFrom).toEqual(['203.0.113.5/32']);
  });

  test('ping follows ip_addresses like the others; the removed ping_also_run_using_external_ip is ignored with a warning', () => {
    expect(ips('ping:')).toEqual(['vm_1>vm_2:internal']);
    const also = translate('ping: { flags: { ping_also_run_using_external_ip: True } }');
    expect(also.benchmarks.map((b) => b.ip)).toEqual(['internal']);
    expect(also.warnings).toEqual([
      'ping.flags.ping_also_run_using_external_ip: ignored: PKB removed this flag in favour of ip_addresses (default INTERNAL); to ping external addresses too, set ip_addresses: BOTH',
    ]);
    expect(ips('ping: { flags: { ip_addresses: BOTH } }')).toEqual(['vm_1>vm_2:external', 'vm_1>vm_2:internal']);
    const cross = translate('ping: { vm_groups: { vm_1: { cloud: AWS, vm_spec: { AWS: { zone: us-east-1a } } } } }');
    expect(cross.benchmarks.map((b) => b.ip)).toEqual(['external']);
    expect(cross.warnings.join('\n')).toMatch(/vm_1 cannot reach the internal address of vm_2/);
    expect(translate('ping:').benchmarks[0]).toEqual({ tool: 'ping', client: 'vm_1', server: 'vm_2', ip: 'internal', count: 100, interval: 1 });
  });
});

describe('benchmark flags', () => {
  test('netperf: tests, length, integer-list streams with ranges, max_iter confidence, PKB send sizes per stream test', () => {
    const t = translate(`
netperf:
  flags:
    netperf_benchmarks: [tcp_rr, UDP_STREAM, TCP_STREAM]
    netperf_test_length: 10
    netperf_num_streams: "1,4:6"
    netperf_max_iter: 5
    netperf_udp_stream_send_size_in_bytes: 1400
    ip_addresses: INTERNAL
`);
    expect(t.benchmarks).toEqual([
      {
        tool: 'netperf',
        client: 'vm_1',
        server: 'vm_2',
        ip: 'internal',
        tests: ['TCP_RR', 'TCP_STREAM'],
        duration: 10,
        streams: [1, 4, 5, 6],
        confidence: { level: 99, width: 5, min: 3, max: 5 },
        sendSize: 131072,
      },
      {
        tool: 'netperf',
        client: 'vm_1',
        server: 'vm_2',
        ip: 'internal',
        tests: ['UDP_STREAM'],
        duration: 10,
        streams: [1, 4, 5, 6],
        confidence: { level: 99, width: 5, min: 3, max: 5 },
        sendSize: 1400,
      },
    ]);
    expect(t.warnings).toEqual([]);
  });

  test("netperf default tests are PKB's TCP_RR, TCP_CRR, TCP_STREAM for 60 s", () => {
    expect(translate('netperf: { flags: { ip_addresses: INTERNAL } }').benchmarks).toEqual([
      { tool: 'netperf', client: 'vm_1', server: 'vm_2', ip: 'internal', tests: ['TCP_RR', 'TCP_CRR', 'TCP_STREAM'], duration: 60, sendSize: 131072 },
    ]);
  });

  test('iperf: both directions; TCP and UDP split by target rate; timeout and copies become options', () => {
    const t = translate(
      `
iperf:
  flags: { iperf_benchmarks: "TCP,UDP", iperf_sending_thread_count: [1, 8], iperf_runtime_in_seconds: 5, iperf_timeout: 30, ip_addresses: INTERNAL, num_benchmark_copies: 3 }
`,
      'iperf',
    );
    expect(t.benchmarks).toEqual([
      { tool: 'iperf', client: 'vm_1', server: 'vm_2', ip: 'internal', protocol: 'tcp', duration: 5, streams: [1, 8] },
      { tool: 'iperf', client: 'vm_1', server: 'vm_2', ip: 'internal', protocol: 'udp', duration: 5, streams: [1, 8], bitrate: '1M' },
      { tool: 'iperf', client: 'vm_2', server: 'vm_1', ip: 'internal', protocol: 'tcp', duration: 5, streams: [1, 8] },
      { tool: 'iperf', client: 'vm_2', server: 'vm_1', ip: 'internal', protocol: 'udp', duration: 5, streams: [1, 8], bitrate: '1M' },
    ]);
    expect(t.options).toEqual({ trialTimeout: 30, repetitions: 3 });
    expect(t.warnings.join('\n')).toMatch(/1 Mbit\/s per stream, as PKB does/);
    const rated = translate('iperf: { flags: { iperf_benchmarks: [TCP, UDP], iperf_udp_per_stream_bandwidth: 500, iperf_tcp_per_stream_bandwidth: 500, ip_addresses: EXTERNAL } }');
    expect(rated.benchmarks[0]).toMatchObject({ protocol: ['tcp', 'udp'], bitrate: '500M' });
  });

  test('unknown and ignored flags are warnings naming the flag; upper-case flag names are read lower-case', () => {
    const t = translate('iperf: { flags: { Gce_network_tier: premium, some_flag: 1, run_processes: 8, netperf_test_length: 10 } }');
    expect(t.hosts.vm_1?.networkTier).toBe('premium');
    expect(t.warnings).toEqual([
      "iperf.flags.Gce_network_tier: PKB flag names are lower case: read 'Gce_network_tier' as 'gce_network_tier'",
      "iperf.flags.some_flag: flag 'some_flag' is not used by the netbench translation; ignored",
      "iperf.flags.run_processes: flag 'run_processes' ignored: PKB runs several benchmark runs (each with its own VMs) at once; netbench provisions each host once and runs trials one at a time (options.concurrency runs trials at once)",
      "iperf.flags.netperf_test_length: flag 'netperf_test_length' is not used by the netbench translation; ignored",
    ]);
  });
});

describe('flag matrix', () => {
  test('defs become axes named like the flags; the filter becomes CEL; zip advances together', () => {
    const t = translate(`
netperf:
  flag_matrix: m
  flag_matrix_defs:
    m: { zones: [us-west1-a, us-west1-b], netperf_num_streams: [1, 8], other: [x] }
  flag_matrix_filters:
    m: "zones != 'us-west1-b' or netperf_num_streams > 1"
  flag_zip: z
  flag_zip_defs:
    z: { extra_zones: [us-east1-b, us-east1-c], machine_type: [n1-standard-2, n1-standard-4] }
  flags: { netperf_benchmarks: TCP_RR, ip_addresses: INTERNAL }
`);
    expect(t.matrix).toEqual({
      axes: { zones: ['us-west1-a', 'us-west1-b'], netperf_num_streams: [1, 8], other: ['x'] },
      zip: [{ extra_zones: ['us-east1-b', 'us-east1-c'], machine_type: ['n1-standard-2', 'n1-standard-4'] }],
      filter: 'zones != "us-west1-b" || netperf_num_streams > 1',
    });
    expect(t.hosts).toEqual({
      vm_1: { cloud: 'gcp', machineType: '${machine_type}', zone: '${zones}' },
      vm_2: { cloud: 'gcp', machineType: '${machine_type}', zone: '${extra_zones}' },
    });
    expect(t.benchmarks[0]?.streams).toBe('${netperf_num_streams}');
    expect(t.warnings).toContain("netperf.flag_matrix_defs.m.other: flag 'other' varies in the matrix, but netbench does not use it: its cells repeat the same trials");
  });

  test('mistakes are errors on the PKB key', () => {
    expect(translate('netperf: { flag_matrix: fmatrx, flag_matrix_defs: { fmatrix: { zones: [a] } } }').issues).toEqual([
      "netperf.flag_matrix: 'fmatrx' is not defined in flag_matrix_defs (defined: fmatrix)",
    ]);
    expect(translate('netperf: { flag_matrix: m, flag_matrix_defs: { m: { cloud: [GCP, AWS] } } }').issues).toEqual([
      'netperf.flag_matrix_defs.m.cloud: cloud cannot be a matrix axis in netbench: a host has one cloud (make one config per cloud)',
    ]);
    expect(translate('netperf: { flag_matrix: m, flag_matrix_defs: { m: { zones: [a, b] } }, flag_matrix_filters: { m: "zone != 1" } }').issues[0]).toMatch(
      /^netperf.flag_matrix_filters.m: cannot translate this filter to CEL at character 1: name 'zone' is neither/,
    );
    expect(translate('fio: { flags: { fio_target_mode: x } }').issues).toEqual([
      "fio: PKB benchmark 'fio' is not one netbench translates (it translates ping, netperf, iperf, netperf_aggregate, container_netperf); for other network tools write a netbench spec",
    ]);
    expect(translate('ping: { vm_groups: { vm_3: {} } }').issues).toEqual(["ping.vm_groups: PKB's ping benchmark needs exactly 2 VMs; this config has 3"]);
    expect(translate('ping: {}\nnetperf: { flag_matrix: m, flag_matrix_defs: { m: { zones: [a] } } }').issues).toEqual([
      'netperf: a netbench spec has one matrix for all its benchmarks: convert a config with a flag_matrix on its own (one benchmark per file)',
    ]);
    expect(translate('iperf: { vm_groups: { vm_1: { cloud: Kubernetes } } }').issues[0]).toMatch(/^iperf.vm_groups.vm_1.cloud: cloud 'Kubernetes' has no netbench plugin/);
  });

  test('several benchmarks without a matrix share one spec, hosts named per benchmark', () => {
    const t = translate('ping: {}\niperf: { flags: { ip_addresses: INTERNAL } }');
    expect(Object.keys(t.hosts)).toEqual(['ping_vm_1', 'ping_vm_2', 'iperf_vm_1', 'iperf_vm_2']);
    expect(t.benchmarks.map((b) => b.tool)).toEqual(['ping', 'iperf3', 'iperf3']);
  });

  test('origins map native fields back to the PKB keys they came from', () => {
    const t = translate('netperf:\n  flags: { zones: us-west1-b, netperf_test_length: 5 }\n  vm_groups: { vm_1: { vm_spec: { GCP: { machine_type: n1-standard-2 } } } }\n');
    expect(t.origins.find(['hosts', 'vm_1', 'zone'])).toEqual({ pkb: ['netperf', 'flags', 'zones'], exact: true });
    expect(t.origins.find(['hosts', 'vm_1', 'machineType'])).toEqual({ pkb: ['netperf', 'vm_groups', 'vm_1', 'vm_spec', 'GCP', 'machine_type'], exact: true });
    expect(t.origins.find(['benchmarks', 0, 'duration'])).toEqual({ pkb: ['netperf', 'flags', 'netperf_test_length'], exact: true });
    expect(t.origins.find(['benchmarks', 0, 'nope'])).toEqual({ pkb: ['netperf'], exact: false });
  });
});

describe('Docker VMs', () => {
  test('become docker hosts sized by docker_cpus and docker_memory_mb; other keys are named and ignored', () => {
    const t = translate(
      'netperf: { vm_groups: { vm_1: { cloud: Docker, vm_spec: { Docker: { docker_cpus: 2, docker_memory_mb: 2048, image: "ubuntu:22.04" } } }, vm_2: { cloud: Docker } }, flags: { zone: us-east1-b } }',
    );
    expect(t.hosts).toEqual({ vm_1: { cloud: 'docker', cpus: 2, memory: '2048m' }, vm_2: { cloud: 'docker' } });
    expect(t.warnings).toEqual([
      "netperf.vm_groups.vm_1.vm_spec.Docker.image: ignored: netbench's docker hosts run the tools image (netbench/tools:bookworm, or image: of your own), with no 'image'",
    ]);
    // A container has one address: PKB's default INTERNAL run targets it (netbench calls it internal).
    expect(t.benchmarks.map((b) => b.ip)).toEqual(['internal']);
  });

  test("next to a cloud VM, a Docker VM is admitted at this machine's public address (publicAddress: auto)", () => {
    const t = translate('netperf: { vm_groups: { vm_1: { cloud: Docker }, vm_2: { vm_spec: { GCP: { zone: us-central1-a } } } } }');
    expect(t.hosts.vm_1).toEqual({ cloud: 'docker', publicAddress: 'auto' });
    expect(t.benchmarks.map((b) => b.ip)).toEqual(['external']);
    expect(t.warnings).toEqual([
      "netperf: vm_1 cannot reach the internal address of vm_2: PKB's default ip_addresses (INTERNAL, since January 2024) would fail there; netbench measures the external address — set ip_addresses: EXTERNAL (or BOTH) to say so",
    ]);
  });

  test('container_netperf runs two docker containers sized like its pods, with a note on the cluster PKB would use', () => {
    const t = translate(
      'container_netperf: { container_specs: { netperf: { image: netperf, cpus: 2, memory: 4GiB } }, container_registry: {}, container_cluster: { vm_count: 2, vm_spec: { GCP: { machine_type: n1-standard-4, zone: us-east1-b } } } }',
    );
    expect(t.hosts).toEqual({ container_1: { cloud: 'docker', cpus: 2, memory: '4096m' }, container_2: { cloud: 'docker', cpus: 2, memory: '4096m' } });
    expect(t.warnings).toEqual([]);
    expect(t.notes.join('\n')).toMatch(/pods on a 2-node cluster of GCP n1-standard-4 in us-east1-b/);
  });
});

describe('use_vpn and vpn_service (PKB cloud VPN)', () => {
  const groups = 'vm_groups: { vm_1: { cidr: 10.0.1.0/24 }, vm_2: { cidr: 192.168.1.0/24 } }';
  test('on two GCP groups: each its own vpcGroup network, the same Classic VPN block on both (PKB defaults: 1 tunnel, 1 gateway, static, IKEv1)', () => {
    const t = translate(`ping: { flags: { use_vpn: True }, ${groups} }`);
    expect(t.warnings).toEqual([]);
    const vpn = { type: 'classic', routing: 'static', gateways: 1, tunnels: 1, ikeVersion: 1 };
    expect(t.hosts['vm_1']).toMatchObject({ vpcGroup: 'vm-1', vpn });
    expect(t.hosts['vm_2']).toMatchObject({ vpcGroup: 'vm-2', vpn });
    const full = translate(`ping: { flags: { use_vpn: True }, vpn_service_gateway_count: 2, vpn_service: { tunnel_count: 3, ike_version: 2, routing_type: static }, ${groups} }`);
    expect(full.hosts['vm_1']!['vpn']).toEqual({ type: 'classic', routing: 'static', gateways: 2, tunnels: 3, ikeVersion: 2 });
  });

  test('dynamic routing becomes HA VPN with Cloud Router and IKEv2, without a warning; a shared_key is replaced by a per-run secret; bad counts are errors', () => {
    const dynamic = translate(`ping: { flags: { use_vpn: True }, vpn_service: { routing_type: dynamic, tunnel_count: 2, shared_key: hunter2 }, ${groups} }`);
    const vpn = { type: 'ha', routing: 'dynamic', gateways: 1, tunnels: 2, ikeVersion: 2 };
    expect(dynamic.hosts['vm_1']!['vpn']).toEqual(vpn);
    expect(dynamic.hosts['vm_2']!['vpn']).toEqual(vpn);
    expect(dynamic.issues).toEqual([]);
    const warned = dynamic.warnings.join('\n');
    expect(warned).not.toMatch(/routing_type|not build|refuse/);
    expect(warned).toMatch(/shared_key ignored: netbench makes a fresh shared secret per run/);
    expect(JSON.stringify(dynamic.hosts)).not.toContain('hunter2');
    // HA VPN speaks IKEv2 only: an explicit IKEv1 with dynamic routing is an error, IKEv2 is fine.
    expect(translate(`ping: { flags: { use_vpn: True }, vpn_service: { routing_type: dynamic, ike_version: 1 }, ${groups} }`).issues).toEqual([
      'ping.vpn_service.ike_version: routing_type dynamic is an HA VPN, which requires IKE version 2',
    ]);
    expect(translate(`ping: { flags: { use_vpn: True }, vpn_service: { routing_type: dynamic, ike_version: 2 }, ${groups} }`).issues).toEqual([]);
    expect(translate(`ping: { flags: { use_vpn: True }, vpn_service: { tunnel_count: 0 }, ${groups} }`).issues).toEqual([
      'ping.vpn_service.tunnel_count: expected an integer from 1 to 8',
    ]);
  });

  test('not on two GCP groups, or without use_vpn: no VPN, with a warning saying what is measured', () => {
    const aws = translate('ping: { flags: { use_vpn: True }, vm_groups: { vm_1: { cloud: AWS, vm_spec: { AWS: { zone: us-east-1a } } } } }');
    expect(Object.values(aws.hosts).some((h) => h['vpn'] !== undefined)).toBe(false);
    expect(aws.warnings.join('\n')).toMatch(/Cloud VPN between two GCP VM groups only/);
    const off = translate(`ping: { vpn_service: { tunnel_count: 2 }, ${groups} }`);
    expect(off.warnings).toContain('ping.vpn_service: vpn_service ignored: use_vpn is not set');
    expect(off.hosts['vm_1']!['vpn']).toBeUndefined();
  });
});
