import { ParseError } from '@netbench/plugin-api';
import { type PlainReply, readPlainReply } from './plain-reply.js';

/** One echo reply line (`64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.113 ms`). */
export interface PingReply {
  readonly seq: number;
  readonly from: string;
  readonly bytes: number;
  readonly ttl?: number;
  /** Absent when the payload is too small to carry a timestamp (`-s` below 16). */
  readonly rttMs?: number;
  /** Milliseconds since the epoch, from `-D`. */
  readonly timestamp?: number;
  /** A second reply to a request already answered (`(DUP!)`, or a repeated sequence number). */
  readonly duplicate: boolean;
}

/** An ICMP error reported instead of a reply (`From 10.0.0.1 icmp_seq=3 Destination Host Unreachable`). */
export interface PingErrorReply {
  readonly seq: number;
  readonly from: string;
  readonly message: string;
  readonly timestamp?: number;
}

export interface PingSummary {
  readonly transmitted: number;
  /** Distinct requests answered (duplicates excluded, as ping counts them). */
  readonly received: number;
  readonly duplicates: number;
  readonly corrupted: number;
  readonly errors: number;
  readonly lossPercent: number;
  readonly timeMs?: number;
}

/** ping's own statistics over every reply it timed, duplicates included. Milliseconds. */
export interface PingRttSummary {
  readonly min: number;
  readonly avg: number;
  readonly max: number;
  readonly mdev: number;
}

export interface PingOutput {
  /** Name as given to ping. */
  readonly destination: string;
  /** Address ping resolved it to. */
  readonly address: string;
  readonly payloadBytes: number;
  readonly replies: readonly PingReply[];
  readonly errorReplies: readonly PingErrorReply[];
  readonly summary: PingSummary;
  readonly rtt?: PingRttSummary;
  /** Flood and adaptive modes: mean inter-packet gap and smoothed RTT, ms. */
  readonly ipg?: { readonly gapMs: number; readonly ewmaMs: number };
  /** Most requests in flight at once (`pipe N`). */
  readonly pipe?: number;
  /** The output is a flood ping's (dots instead of per-packet lines). */
  readonly flood: boolean;
  /** Diagnostics ping printed (`ping: ...`, warnings). */
  readonly messages: readonly string[];
}

const HEADER_RE = /^PING (\S+?) ?\((.+?)\)(?: from \S+(?: \S+)?:)? (\d+)(?:\(\d+\))? (?:bytes of data\.|data bytes)$/;
const TIMESTAMP_RE = /^\[(\d+(?:\.\d+)?)\] (.*)$/;
// `icmp_req` is what iputils before 2012 printed.
const REPLY_RE = /^(\d+) bytes from (.+?): icmp_(?:seq|req)=(\d+)(?: ident=\d+)?(?: ttl=(\d+))?(?: time=(\d+(?:\.\d+)?) ms)?(.*)$/;
const ERROR_REPLY_RE = /^From (.+?) icmp_(?:seq|req)=(\d+) (.+)$/;
const NO_ANSWER_RE = /^no answer yet for icmp_seq=\d+$/;
const STATS_HEADER_RE = /^--- (.+) ping statistics ---$/;
const TRANSMITTED_RE =
  /^(\d+) packets transmitted, (\d+) (?:packets )?received(?:, \+(\d+) duplicates)?(?:, \+(\d+) corrupted)?(?:, \+(\d+) errors)?, (\d+(?:\.\d+)?)% packet loss(?:, time (\d+)ms)?$/;
const RTT_PART_RE = /^(?:rtt|round-trip) min\/avg\/max\/(?:mdev|stddev) = (\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?) ms$/;
const PIPE_PART_RE = /^pipe (\d+)$/;
const IPG_PART_RE = /^ipg\/ewma (\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?) ms$/;
// Flood mode prints `.` per request and `\b \b` per reply (`E` per error) on one line.
const FLOOD_RE = /^[.\b E]*\.[.\b E]*$/;
const DIAGNOSTIC_RE = /^(?:ping: |WARNING: |Warning: )/;
const SEQ_SPACE = 65_536;

/** Read the output of Linux (iputils) ping, with or without `-D`, `-q`, `-f`. Pure. */
export function parsePingOutput(raw: string, source?: string): PingOutput {
  const lines = raw.split('\n');
  function fail(message: string, index?: number): never {
    throw new ParseError(message, source, index === undefined ? undefined : index + 1);
  }

  let header: { destination: string; address: string; payloadBytes: number } | undefined;
  let summary: PingSummary | undefined;
  let rtt: PingRttSummary | undefined;
  let ipg: PingOutput['ipg'];
  let pipe: number | undefined;
  let inStatistics = false;
  let flood = false;
  const replies: PingReply[] = [];
  const errorReplies: PingErrorReply[] = [];
  const messages: string[] = [];
  // Sequence numbers answered since the last wrap: a bitmap, not a Set, so long logs stay cheap.
  const seen = new Uint8Array(SEQ_SPACE);
  let highestSeq = -1;

  const plain: PlainReply = { timestamp: undefined, bytes: 0, from: '', seq: 0, ttl: 0, rttMs: 0 };
  const addReply = (seq: number, from: string, bytes: number, ttl: number | undefined, rttMs: number | undefined, timestamp: number | undefined, marked: boolean) => {
    // Sequence numbers are 16 bits: a long run wraps, and a wrapped number is not a duplicate.
    if (highestSeq >= 0 && seq + SEQ_SPACE / 2 < highestSeq) {
      seen.fill(0);
      highestSeq = seq;
    }
    // Broadcast pings answer once per host without marking `(DUP!)`; ping still counts them as duplicates.
    const duplicate = marked || seen[seq] === 1;
    seen[seq] = 1;
    highestSeq = Math.max(highestSeq, seq);
    replies.push({ seq, from, bytes, ttl, rttMs, timestamp, duplicate });
  };

  for (let index = 0; index < lines.length; index += 1) {
    const rawLine = lines[index]!;
    // Nearly every line of a long log is a plain reply: read it before the general path.
    if (header && !inStatistics && readPlainReply(rawLine, plain.from, plain)) {
      addReply(plain.seq % SEQ_SPACE, plain.from, plain.bytes, plain.ttl, plain.rttMs, plain.timestamp, false);
      continue;
    }
    const line = rawLine.trimEnd();
    if (line.trim() === '') continue;
    if (DIAGNOSTIC_RE.test(line)) {
      messages.push(line);
      continue;
    }
    if (!header) {
      const match = HEADER_RE.exec(line);
      if (!match) fail(`not ping output: expected "PING <host> (<address>) ...", got ${JSON.stringify(clip(line))}`, index);
      header = { destination: match[1]!, address: match[2]!, payloadBytes: Number(match[3]) };
      continue;
    }
    if (inStatistics) {
      const transmitted = TRANSMITTED_RE.exec(line);
      if (transmitted) {
        summary = {
          transmitted: Number(transmitted[1]),
          received: Number(transmitted[2]),
          duplicates: Number(transmitted[3] ?? 0),
          corrupted: Number(transmitted[4] ?? 0),
          errors: Number(transmitted[5] ?? 0),
          lossPercent: Number(transmitted[6]),
          timeMs: transmitted[7] === undefined ? undefined : Number(transmitted[7]),
        };
        continue;
      }
      // `rtt min/avg/max/mdev = ... ms, pipe N, ipg/ewma a/b ms`, each part optional.
      for (const part of line.split(', ')) {
        const rttMatch = RTT_PART_RE.exec(part);
        const pipeMatch = PIPE_PART_RE.exec(part);
        const ipgMatch = IPG_PART_RE.exec(part);
        if (rttMatch) rtt = { min: Number(rttMatch[1]), avg: Number(rttMatch[2]), max: Number(rttMatch[3]), mdev: Number(rttMatch[4]) };
        else if (pipeMatch) pipe = Number(pipeMatch[1]);
        else if (ipgMatch) ipg = { gapMs: Number(ipgMatch[1]), ewmaMs: Number(ipgMatch[2]) };
        else fail(`unrecognised statistics line ${JSON.stringify(clip(line))}`, index);
      }
      continue;
    }
    if (STATS_HEADER_RE.test(line)) {
      inStatistics = true;
      continue;
    }
    if (FLOOD_RE.test(line)) {
      flood = true;
      continue;
    }
    let timestamp: number | undefined;
    let body = line;
    const stamped = TIMESTAMP_RE.exec(line);
    if (stamped) {
      timestamp = Math.round(Number(stamped[1]) * 1000);
      body = stamped[2]!;
    }
    const reply = REPLY_RE.exec(body);
    if (reply) {
      const ttl = reply[4] === undefined ? undefined : Number(reply[4]);
      const rttMs = reply[5] === undefined ? undefined : Number(reply[5]);
      addReply(Number(reply[3]) % SEQ_SPACE, reply[2]!, Number(reply[1]), ttl, rttMs, timestamp, reply[6]!.includes('(DUP!)'));
      continue;
    }
    const error = ERROR_REPLY_RE.exec(body);
    if (error) {
      errorReplies.push({ from: error[1]!, seq: Number(error[2]), message: error[3]!, timestamp });
      continue;
    }
    if (NO_ANSWER_RE.test(body)) continue;
    fail(`unrecognised line ${JSON.stringify(clip(line))}`, index);
  }

  if (!header) {
    // ping exits before its header when it cannot even start (no route, bad name, no permission): say what it said.
    if (messages.length > 0)
      fail(
        `ping failed: ${messages.join(' | ')}`,
        lines.findIndex((line) => DIAGNOSTIC_RE.test(line)),
      );
    fail('empty output: no "PING" line');
  }
  if (!summary) fail('no "packets transmitted" statistics: ping did not finish (killed or interrupted?)', lines.length - 1);
  return { ...header, replies, errorReplies, summary, rtt, ipg, pipe, flood, messages };
}

function clip(line: string): string {
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
