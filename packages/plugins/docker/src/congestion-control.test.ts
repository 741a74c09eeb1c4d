import { type HostRequest, UnsupportedError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { checkCongestionControl, containerSysctls, explainStartFailure } from './congestion-control.js';
import { type DockerHostConfig, hostSchema } from './host-schema.js';

const request = (id: string, block: Record<string, unknown>): HostRequest<DockerHostConfig> => ({ id, name: id, cloud: 'docker', config: hostSchema.parse(block) });
// What runc answered here when the root namespace did not allow the algorithm (docker run --sysctl net.ipv4.tcp_congestion_control=cubic).
const RUNC_EPERM =
  'failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: write /proc/sys/net/ipv4/tcp_congestion_control: operation not permitted: unknown';

describe('docker congestionControl', () => {
  it('asks Docker for the sysctl only when the host sets it', () => {
    expect(containerSysctls(hostSchema.parse({ congestionControl: 'cubic' }))).toEqual({ 'net.ipv4.tcp_congestion_control': 'cubic' });
    expect(containerSysctls(hostSchema.parse({}))).toBeUndefined();
  });

  it('the schema refuses it on network: host and anything that is not an algorithm name', () => {
    expect(hostSchema.safeParse({ congestionControl: 'reno', network: 'host' }).error?.issues[0]).toMatchObject({
      path: ['congestionControl'],
      message: expect.stringMatching(/^congestionControl needs the container's own network namespace/),
    });
    expect(hostSchema.safeParse({ congestionControl: 'reno bbr' }).success).toBe(false);
  });

  it('preflight refuses a host-network container however the request was made, before reading the kernel', async () => {
    const onHost = { id: 'h', name: 'h', cloud: 'docker', config: { network: 'host', congestionControl: 'reno' } } as HostRequest<DockerHostConfig>;
    await expect(checkCongestionControl([onHost])).rejects.toThrow(/docker: host h sets congestionControl on network: host, where it would change this machine's default/);
  });

  it('says what decides it when runc could not write the sysctl, and leaves other failures alone', () => {
    const explained = explainStartFailure(request('server', { congestionControl: 'cubic' }), new Error(RUNC_EPERM));
    expect(explained).toBeInstanceOf(UnsupportedError);
    expect((explained as Error).message).toMatch(
      /^docker: host server: the daemon could not set congestionControl cubic .*operation not permitted.*net\.ipv4\.tcp_allowed_congestion_control/,
    );
    const other = new Error('port is already allocated');
    expect(explainStartFailure(request('server', { congestionControl: 'cubic' }), other)).toBe(other);
    expect(explainStartFailure(request('server', {}), new Error(RUNC_EPERM))).toBeInstanceOf(Error);
  });
});
