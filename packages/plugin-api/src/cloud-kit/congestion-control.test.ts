import { describe, expect, it } from 'vitest';
import { applyVmCongestionControl, type HostCommand } from './congestion-control.js';

/**
 * A VM's kernel as far as these commands go: its user, loaded algorithms, modules it can load,
 * and its default. Every argv is recorded, so the test sees exactly what would run over SSH.
 */
function vm(options: { uid: number; loaded: string[]; modules?: string[]; current: string; sudo?: boolean }) {
  const calls: string[] = [];
  const state = { ...options, loaded: [...options.loaded] };
  const run: HostCommand = async (argv) => {
    calls.push(argv.join(' '));
    let args = [...argv];
    const root = state.uid === 0 || (args[0] === 'sudo' && args[1] === '-n' && state.sudo !== false);
    if (args[0] === 'sudo') {
      if (state.sudo === false) return { code: 1, stdout: '', stderr: 'sudo: a password is required' };
      args = args.slice(2);
    }
    const [cmd, arg] = args;
    if (cmd === 'id') return { code: 0, stdout: `${state.uid}\n`, stderr: '' };
    if (cmd === 'cat' && arg!.endsWith('available_congestion_control')) return { code: 0, stdout: `${state.loaded.join(' ')}\n`, stderr: '' };
    if (cmd === 'cat') return { code: 0, stdout: `${state.current}\n`, stderr: '' };
    if (cmd === 'modprobe') {
      const name = arg!.replace(/^tcp_/, '');
      if (!root || !(state.modules ?? []).includes(name)) return { code: 1, stdout: '', stderr: `modprobe: FATAL: Module ${arg} not found` };
      state.loaded.push(name);
      return { code: 0, stdout: '', stderr: '' };
    }
    if (cmd === 'sysctl') {
      if (!root) return { code: 255, stdout: '', stderr: 'sysctl: permission denied on key "net.ipv4.tcp_congestion_control"' };
      state.current = args[2]!.split('=')[1]!;
      return { code: 0, stdout: '', stderr: '' };
    }
    return { code: 127, stdout: '', stderr: `${cmd}: not found` };
  };
  return { run, calls, state };
}

describe('congestion control on a cloud VM', () => {
  it("as the image's login user: loads the module with sudo -n, sets the default, returns what the VM reports", async () => {
    const host = vm({ uid: 1000, loaded: ['reno', 'cubic'], modules: ['bbr'], current: 'cubic' });
    await expect(applyVmCongestionControl(host.run, 'bbr', 'aws: host a')).resolves.toBe('bbr');
    expect(host.calls).toEqual([
      'id -u',
      'cat /proc/sys/net/ipv4/tcp_available_congestion_control',
      'sudo -n modprobe tcp_bbr',
      'cat /proc/sys/net/ipv4/tcp_available_congestion_control',
      'cat /proc/sys/net/ipv4/tcp_available_congestion_control',
      'sudo -n sysctl -w net.ipv4.tcp_congestion_control=bbr',
      'cat /proc/sys/net/ipv4/tcp_congestion_control',
    ]);
  });

  it('as root: no sudo, no modprobe when the kernel has it loaded', async () => {
    const host = vm({ uid: 0, loaded: ['reno', 'cubic'], current: 'reno' });
    await expect(applyVmCongestionControl(host.run, 'cubic', 'gcp: host b')).resolves.toBe('cubic');
    expect(host.calls.some((c) => c.startsWith('sudo') || c.startsWith('modprobe'))).toBe(false);
  });

  it('without a setting only reads the default (the label)', async () => {
    const host = vm({ uid: 1000, loaded: ['reno', 'cubic'], current: 'cubic' });
    await expect(applyVmCongestionControl(host.run, undefined, 'azure: host c')).resolves.toBe('cubic');
    expect(host.calls).toEqual(['cat /proc/sys/net/ipv4/tcp_congestion_control']);
  });

  it('refuses what the kernel cannot load, and a user without passwordless sudo, naming the host and the fix', async () => {
    const missing = vm({ uid: 1000, loaded: ['reno', 'cubic'], current: 'cubic' });
    await expect(applyVmCongestionControl(missing.run, 'bbr', 'aws: host a')).rejects.toThrow(
      'aws: host a: congestionControl bbr is not available (the kernel has: reno, cubic; modprobe tcp_bbr: modprobe: FATAL: Module tcp_bbr not found). To fix: choose one of those, or an image whose kernel has tcp_bbr.',
    );
    const noSudo = vm({ uid: 1000, loaded: ['reno', 'cubic'], current: 'cubic', sudo: false });
    await expect(applyVmCongestionControl(noSudo.run, 'reno', 'gcp: host b')).rejects.toThrow(/gcp: host b: .*sudo: a password is required/);
    expect(noSudo.state.current).toBe('cubic');
    await expect(applyVmCongestionControl(noSudo.run, 'bad name', 'gcp: host b')).rejects.toThrow('gcp: host b: "bad name" is not a congestion control name');
  });
});
