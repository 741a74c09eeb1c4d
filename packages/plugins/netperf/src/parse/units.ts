const BITS_RE = /^10\^(\d+)bits\/s(?:ec)?$/;
const BYTES_RE = /^([KMG]?)Bytes\/s(?:ec)?$/;
const TRANS_RE = /^Trans\/s(?:ec)?$/i;

/** Whether a throughput unit is a transaction rate. */
export function isTransactionUnit(unit: string): boolean {
  return TRANS_RE.test(unit);
}

/**
 * Factor that turns a value in netperf's throughput unit into Mbit/s
 * (10^6 bits/s, what PKB reports), or undefined for an unknown unit.
 * netperf's `-f K/M/G` byte units are powers of 2; bit units powers of 10.
 */
export function toMbitFactor(unit: string): number | undefined {
  const bits = BITS_RE.exec(unit);
  if (bits) return 10 ** (Number(bits[1]) - 6);
  const bytes = BYTES_RE.exec(unit);
  if (bytes) {
    const power = { '': 0, K: 10, M: 20, G: 30 }[bytes[1] as '' | 'K' | 'M' | 'G'];
    return (2 ** power * 8) / 1e6;
  }
  return undefined;
}

/** A throughput unit token as netperf prints it in headers. */
export const THROUGHPUT_UNIT_RE = /^(?:10\^\d+bits\/s(?:ec)?|[KMG]?Bytes\/s(?:ec)?)$/;
