import { ParseError } from '@netbench/plugin-api';

/** Summary statistics irtt writes for a duration series, in nanoseconds. */
export interface IrttDurationStats {
  readonly n: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly median?: number;
  readonly stddev: number;
}

/** One packet of `round_trips`: times in nanoseconds, `lost` as irtt says it. */
export interface IrttRoundTrip {
  readonly seqno: number;
  /** `false`, `true` (direction unknown), `true_up` (the server never got it), `true_down` (the reply was lost). */
  readonly lost: 'false' | 'true' | 'true_up' | 'true_down';
  /** Client send time, ms since the epoch (wall clock). */
  readonly sentAt?: number;
  readonly rtt?: number;
  readonly sendDelay?: number;
  readonly receiveDelay?: number;
  readonly ipdv?: number;
}

export interface IrttResult {
  readonly version: string;
  readonly remoteAddress: string;
  readonly intervalNs: number;
  readonly durationNs: number;
  readonly length: number;
  readonly dscp: number;
  /** Test start, ms since the epoch. */
  readonly startTime?: number;
  readonly rtt?: IrttDurationStats;
  readonly sendDelay?: IrttDurationStats;
  readonly receiveDelay?: IrttDurationStats;
  readonly ipdv?: IrttDurationStats;
  readonly sendIpdv?: IrttDurationStats;
  readonly receiveIpdv?: IrttDurationStats;
  readonly packetsSent: number;
  readonly packetsReceived: number;
  /** Packets the server says it received (`--stats` count), when it reported them. */
  readonly serverPacketsReceived?: number;
  readonly duplicates: number;
  readonly latePackets: number;
  readonly lossPercent: number;
  readonly upstreamLossPercent?: number;
  readonly downstreamLossPercent?: number;
  readonly timerMisses: number;
  readonly sendRateBps?: number;
  readonly receiveRateBps?: number;
  readonly roundTrips: readonly IrttRoundTrip[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const LOST = new Set(['false', 'true', 'true_up', 'true_down']);

/** irtt's JSON result (`irtt client -o -`, or a `.json` file it wrote); `source` names the file in errors. */
export function parseIrttJson(raw: string, source = 'irtt output'): IrttResult {
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (error) {
    throw new ParseError(`${source}: not JSON (${(error as Error).message}); irtt writes JSON with -o`, source);
  }
  const fail = (what: string) => new ParseError(`${source}: ${what}`, source);
  if (!isObject(doc) || !isObject(doc.version) || typeof doc.version.irtt !== 'string') throw fail('not irtt JSON output (no version.irtt)');
  const { config, stats } = doc;
  if (!isObject(config) || !isObject(config.params)) throw fail('no config.params');
  if (!isObject(stats)) throw fail('no stats');
  const num = (obj: Json, key: string, where: string): number => {
    const value = obj[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) throw fail(`${where}.${key} is not a number`);
    return value;
  };
  const optNum = (obj: Json, key: string): number | undefined => (typeof obj[key] === 'number' ? (obj[key] as number) : undefined);
  const series = (key: string): IrttDurationStats | undefined => {
    const value = stats[key];
    if (!isObject(value) || typeof value.n !== 'number' || value.n === 0) return undefined;
    const median = optNum(value, 'median');
    return {
      n: value.n,
      min: num(value, 'min', `stats.${key}`),
      max: num(value, 'max', `stats.${key}`),
      mean: num(value, 'mean', `stats.${key}`),
      stddev: optNum(value, 'stddev') ?? 0,
      ...(median === undefined ? {} : { median }),
    };
  };
  const trips = Array.isArray(doc.round_trips) ? doc.round_trips : [];
  const roundTrips = trips.map((trip, index): IrttRoundTrip => {
    if (!isObject(trip) || typeof trip.seqno !== 'number' || typeof trip.lost !== 'string' || !LOST.has(trip.lost)) {
      throw fail(`round_trips[${index}] has no seqno or lost`);
    }
    const delay = isObject(trip.delay) ? trip.delay : {};
    const ipdv = isObject(trip.ipdv) ? trip.ipdv : {};
    const client = isObject(trip.timestamps) && isObject(trip.timestamps.client) ? trip.timestamps.client : {};
    const sendWall = isObject(client.send) ? optNum(client.send, 'wall') : undefined;
    const out: { -readonly [K in keyof IrttRoundTrip]: IrttRoundTrip[K] } = { seqno: trip.seqno, lost: trip.lost as IrttRoundTrip['lost'] };
    if (sendWall !== undefined) out.sentAt = sendWall / 1e6;
    const rtt = optNum(delay, 'rtt');
    const send = optNum(delay, 'send');
    const receive = optNum(delay, 'receive');
    const rttIpdv = optNum(ipdv, 'rtt');
    if (rtt !== undefined) out.rtt = rtt;
    if (send !== undefined) out.sendDelay = send;
    if (receive !== undefined) out.receiveDelay = receive;
    if (rttIpdv !== undefined) out.ipdv = rttIpdv;
    return out;
  });
  const params = config.params;
  const startTime = typeof stats.start_time === 'string' ? Date.parse(stats.start_time) : Number.NaN;
  const serverReceived = optNum(stats, 'server_packets_received');
  // irtt leaves the per-direction loss at 0 when the server sent no counts (`--stats=none`); only trust them with the count.
  const withServerCounts = serverReceived !== undefined && params.received_stats !== 'none';
  const rate = (key: string) => (isObject(stats[key]) ? optNum(stats[key], 'bps') : undefined);
  const result: IrttResult = {
    version: doc.version.irtt,
    remoteAddress: typeof config.remote_address === 'string' ? config.remote_address : '',
    intervalNs: num(params, 'interval', 'config.params'),
    durationNs: num(params, 'duration', 'config.params'),
    length: num(params, 'length', 'config.params'),
    dscp: optNum(params, 'dscp') ?? 0,
    ...(Number.isFinite(startTime) ? { startTime } : {}),
    ...defined({
      rtt: series('rtt'),
      sendDelay: series('send_delay'),
      receiveDelay: series('receive_delay'),
      ipdv: series('ipdv_round_trip'),
      sendIpdv: series('ipdv_send'),
      receiveIpdv: series('ipdv_receive'),
      sendRateBps: rate('send_rate'),
      receiveRateBps: rate('receive_rate'),
    }),
    packetsSent: num(stats, 'packets_sent', 'stats'),
    packetsReceived: num(stats, 'packets_received', 'stats'),
    duplicates: optNum(stats, 'duplicates') ?? 0,
    latePackets: optNum(stats, 'late_packets') ?? 0,
    lossPercent: num(stats, 'packet_loss_percent', 'stats'),
    timerMisses: optNum(stats, 'timer_misses') ?? 0,
    ...(withServerCounts
      ? {
          serverPacketsReceived: serverReceived,
          upstreamLossPercent: optNum(stats, 'upstream_loss_percent') ?? 0,
          downstreamLossPercent: optNum(stats, 'downstream_loss_percent') ?? 0,
        }
      : {}),
    roundTrips,
  };
  return result;
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
