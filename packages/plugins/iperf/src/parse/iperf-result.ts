import type { ReportLine } from './report-line.js';

export type IperfDirection = 'forward' | 'reverse';

/** One direction of data: forward is client → server, reverse is server → client (`-R`, `-r`, `-d`). */
export interface IperfFlow {
  readonly direction: IperfDirection;
  /** Streams whose final report was seen. */
  readonly streams: number;
  /** The sender's totals ([SUM] when there are several streams, else the stream's). */
  readonly sent?: IperfTotals;
  /** The receiver's totals (a UDP client's "Server Report", or a server's own report). */
  readonly received?: IperfTotals;
  /** UDP datagrams that arrived out of order, summed over streams. */
  readonly outOfOrder?: number;
}

/** Totals of one side of a flow, summed over streams where iperf printed no [SUM]. */
export interface IperfTotals {
  readonly seconds: number;
  readonly bytes: number;
  readonly bitsPerSecond: number;
  readonly writes?: number;
  readonly writeErrors?: number;
  readonly retries?: number;
  /** Mean over streams of their final smoothed RTT. */
  readonly rttUs?: number;
  readonly pps?: number;
  /** Mean over streams. */
  readonly jitterMs?: number;
  readonly lost?: number;
  readonly total?: number;
}

export interface IperfInterval {
  readonly direction: IperfDirection;
  readonly start: number;
  readonly end: number;
  readonly bitsPerSecond: number;
}

export interface IperfResult {
  /** Whose output this is: the client's (`iperf -c`) or the server's (`iperf -s`). */
  readonly side: 'client' | 'server';
  readonly protocol: 'tcp' | 'udp';
  /** `-e` columns were printed. */
  readonly enhanced: boolean;
  /** Milliseconds since the epoch when the first stream connected (enhanced reports print it). */
  readonly startedAt?: number;
  /** Write (client) or read (server) buffer, bytes. */
  readonly bufferBytes?: number;
  readonly windowBytes?: number;
  readonly datagramBytes?: number;
  readonly flows: readonly IperfFlow[];
  readonly intervals: readonly IperfInterval[];
  /** iperf's warnings (an option it did not know, a lost final ack). */
  readonly warnings: readonly string[];
}

export type { ReportLine };
