import { NetbenchError, RetryableError } from '@netbench/plugin-api';

/** iperf3 ran but reported a failure in its JSON `error` field. */
export class Iperf3Error extends NetbenchError {
  override readonly name: string = 'Iperf3Error';
  constructor(
    readonly reported: string,
    source?: string,
  ) {
    super(`iperf3 reported an error${source ? ` in ${source}` : ''}: ${reported}`);
  }
}

/** Transient iperf3 failure (server not listening yet, or busy with another client): worth retrying. */
export class RetryableIperf3Error extends RetryableError {
  override readonly name: string = 'RetryableIperf3Error';
  constructor(
    readonly reported: string,
    source?: string,
  ) {
    super(`iperf3 reported an error${source ? ` in ${source}` : ''}: ${reported}`);
  }
}

// "unable to connect to server: Connection refused" while a server starts; "the server is busy running a test".
const TRANSIENT_RE = /Connection refused|server is busy|try again later/i;

/** The error to throw for iperf3's JSON `error` text. */
export function iperf3Failure(reported: string, source?: string): Error {
  return TRANSIENT_RE.test(reported) ? new RetryableIperf3Error(reported, source) : new Iperf3Error(reported, source);
}

/** The `error` field of iperf3 JSON output, if the text is such JSON and has one. */
export function reportedError(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string') {
      return (value as { error: string }).error;
    }
  } catch {
    // not JSON: the caller falls back to stderr
  }
  return undefined;
}
