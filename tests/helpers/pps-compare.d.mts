// Types of pps-compare.mjs (a plain module so bench/pps.bench.mjs can share it).
export interface PpsRun {
  readonly status: string;
  readonly error?: string;
  readonly transactions: number;
  readonly packets: number;
  readonly skewMs: number;
  readonly flows: number[];
  readonly intervals: number;
}
export interface PpsComparison {
  readonly netbench: { readonly transactions: number; readonly runs: PpsRun[] };
  readonly byHand: { readonly transactions: number; readonly runs: { rates: number[]; transactions: number }[] };
}
export function comparePps(options?: { servers?: number; duration?: number; burst?: number; rounds?: number }): Promise<PpsComparison>;
