/** `/proc/net/snmp` and `/proc/net/netstat`: `Proto: names…` then `Proto: values…`, flattened to `Proto.Name`. */
export function parseProtoCounters(text: string): Map<string, number> {
  const counters = new Map<string, number>();
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  for (let i = 0; i + 1 < lines.length; i += 1) {
    const [proto, ...names] = lines[i]!.split(/\s+/);
    const [again, ...values] = lines[i + 1]!.split(/\s+/);
    if (!proto?.endsWith(':') || proto !== again || names.length !== values.length || values.some((v) => !/^-?\d+$/.test(v))) continue;
    names.forEach((name, k) => counters.set(`${proto.slice(0, -1)}.${name}`, Number(values[k])));
    i += 1;
  }
  return counters;
}

/** One interface's counters from `/proc/net/dev`. */
export interface InterfaceCounters {
  readonly iface: string;
  readonly rxBytes: number;
  readonly rxPackets: number;
  readonly rxErrors: number;
  readonly rxDrops: number;
  readonly txBytes: number;
  readonly txPackets: number;
  readonly txErrors: number;
  readonly txDrops: number;
}

export function parseProcNetDev(text: string): InterfaceCounters[] {
  const interfaces: InterfaceCounters[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.includes('|')) continue;
    const values = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    if (values.length < 16 || values.some((v) => !Number.isFinite(v))) continue;
    const [rxBytes, rxPackets, rxErrors, rxDrops, , , , , txBytes, txPackets, txErrors, txDrops] = values as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    interfaces.push({ iface: line.slice(0, colon).trim(), rxBytes, rxPackets, rxErrors, rxDrops, txBytes, txPackets, txErrors, txDrops });
  }
  return interfaces;
}

/** One CPU's line of `/proc/net/softnet_stat` (hex): packets processed, dropped (backlog full), time_squeeze. */
export interface SoftnetCounters {
  readonly cpu: number;
  readonly processed: number;
  readonly dropped: number;
  readonly timeSqueeze: number;
}

export function parseSoftnetStat(text: string): SoftnetCounters[] {
  const rows: SoftnetCounters[] = [];
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .forEach((line, index) => {
      const fields = line.split(/\s+/).map((hex) => Number.parseInt(hex, 16));
      if (fields.length < 3 || fields.some((v) => !Number.isFinite(v))) return;
      // Kernels from 5.10 print the CPU number in column 13; before, a row's position is its CPU.
      rows.push({ cpu: fields.length >= 13 && fields[12] !== undefined ? fields[12] : index, processed: fields[0]!, dropped: fields[1]!, timeSqueeze: fields[2]! });
    });
  return rows;
}
