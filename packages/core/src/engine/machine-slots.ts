import { availableParallelism } from 'node:os';
import type { Host } from '@netbench/plugin-api';

/** Runs `work` for a host once a slot of its machine is free. */
export type MachineSlots = <T>(host: Host, work: () => Promise<T>) => Promise<T>;

/**
 * Prepare's commands on hosts that are one machine take turns, a few at a time: local-lab namespaces
 * share their installer (the root namespace, `Host.installHost`), so their id names the machine. Every
 * host's checks, servers and fingerprint at once started ~60 processes together on the lab's machine,
 * and on a slow one (the kernel VM under TCG, 15 hosts) `id -u` then took longer than its 15 s.
 * Hosts without an installer (SSH, clouds) are machines of their own and never wait.
 */
export function machineSlots(perMachine = Math.max(2, availableParallelism() * 2)): MachineSlots {
  const machines = new Map<string, { active: number; readonly waiting: (() => void)[] }>();
  return async (host, work) => {
    const id = host.installHost?.id;
    if (id === undefined) return work();
    let machine = machines.get(id);
    if (!machine) machines.set(id, (machine = { active: 0, waiting: [] }));
    const slots = machine;
    if (slots.active < perMachine) slots.active += 1;
    // A finished one hands its slot straight to the next in line (first come, first served).
    else await new Promise<void>((resolve) => slots.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = slots.waiting.shift();
      if (next) next();
      else slots.active -= 1;
    }
  };
}
