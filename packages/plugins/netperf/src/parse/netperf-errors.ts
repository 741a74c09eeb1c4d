/** A failure netperf reported in its output. */
export interface NetperfFailure {
  /** 1-based line of the output that says so. */
  readonly line: number;
  readonly text: string;
  /** What it means, for the user. */
  readonly explanation: string;
  /** Whether trying again may help (netserver not up yet, a reset connection). */
  readonly retryable: boolean;
}

interface Pattern {
  readonly re: RegExp;
  readonly explanation: string;
  readonly retryable: boolean;
}

const PATTERNS: readonly Pattern[] = [
  {
    re: /establish control: are you sure there is a netserver listening/,
    explanation: 'no netserver accepted the control connection (not started yet, stopped, wrong port, or a firewall)',
    retryable: true,
  },
  {
    re: /establish_control could not establish the control connection/,
    explanation: 'no netserver accepted the control connection (not started yet, stopped, wrong port, or a firewall)',
    retryable: true,
  },
  {
    re: /recv_response(?:_timed(?:_n)?)?: no response received\. errno 110/,
    explanation: 'netserver stopped answering on the control connection (timed out, errno 110): a firewall may drop the data port, or the server is overloaded',
    retryable: false,
  },
  {
    re: /recv_response(?:_timed(?:_n)?)?: (?:no|partial) response received/,
    explanation: 'the control connection to netserver broke during the test (netserver exited or the connection was reset)',
    retryable: true,
  },
  {
    re: /The test you requested \(.*\) is unknown to this netperf/,
    explanation: 'this netperf does not know the test',
    retryable: false,
  },
  {
    re: /\b(?:send|recv)_\w+: data (?:send|recv) error|\bconnect(?:ion)? (?:refused|reset)|Connection (?:refused|reset by peer)|\berrno 111\b/i,
    explanation: 'the data connection to netserver failed (is the data port reachable?)',
    retryable: true,
  },
  {
    re: /\berrno 11[23]\b|No route to host|Network is unreachable/,
    explanation: 'the server address is unreachable',
    retryable: false,
  },
  {
    re: /^netperf: .*(?:error|failed|unable)/i,
    explanation: 'netperf reported an error',
    retryable: false,
  },
];

/** The first failure netperf reported in its output, if any. */
export function findNetperfFailure(text: string): NetperfFailure | undefined {
  const lines = text.split(/\r?\n/);
  for (const pattern of PATTERNS) {
    const index = lines.findIndex((line) => pattern.re.test(line));
    if (index >= 0) {
      return {
        line: index + 1,
        text: (lines[index] as string).trim(),
        explanation: pattern.explanation,
        retryable: pattern.retryable,
      };
    }
  }
  return undefined;
}
