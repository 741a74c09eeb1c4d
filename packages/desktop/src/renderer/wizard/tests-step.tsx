import type { WizardChecks, WizardDirection, WizardLoadTest, WizardNetperfTest, WizardShaping, WizardTool } from '../../shared/bridge-types';
import { bulkDirections } from '../../shared/bulk-directions';

/** What the tests step sets (the wizard page keeps it). */
export interface TestSettings {
  tools: WizardTool[];
  duration: number;
  direction: WizardDirection;
  streams: number;
  protocol: 'tcp' | 'udp' | 'both';
  netperfTests: WizardNetperfTest[];
  repetitions: number;
  /** flent test of the latency-under-load tool. */
  loadTest: WizardLoadTest;
  shaping: { rate: string; delay: string; loss: string };
}

const LOAD_CHOICES: { test: WizardLoadTest; text: string }[] = [
  { test: 'rrul', text: 'rrul: 4 TCP flows each way, ping and UDP probes' },
  { test: 'tcp_nup', text: 'tcp_nup: 4 TCP uploads (client → server), ping probe' },
  { test: 'tcp_ndown', text: 'tcp_ndown: 4 TCP downloads (server → client), ping probe' },
];

const NETPERF_CHOICES: { test: WizardNetperfTest; text: string }[] = [
  { test: 'TCP_RR', text: 'request/response latency and transactions/s (TCP)' },
  { test: 'TCP_CRR', text: 'connect + request/response (new connection each time)' },
  { test: 'UDP_RR', text: 'request/response over UDP (packets per second)' },
  { test: 'TCP_STREAM', text: 'bulk TCP throughput (TCP_MAERTS for server → client)' },
  { test: 'UDP_STREAM', text: 'bulk UDP throughput (client → server only)' },
];

const TOOL_TEXT: Record<WizardTool, string> = {
  ping: 'ICMP round trips with per-packet percentiles.',
  netperf: 'request/response latency or bulk throughput.',
  iperf3: 'throughput with a per-interval time series.',
  load: 'latency under load (flent): round trips while TCP flows fill the link.',
};

/** The wizard's shaping numbers, or an error to show; empty fields are unset. */
export function shapingOf(s: TestSettings['shaping']): { shaping?: WizardShaping; error?: string } {
  const num = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const rate = num(s.rate);
  const delay = num(s.delay);
  const loss = num(s.loss);
  if (rate !== undefined && !(rate > 0 && rate <= 100_000)) return { error: 'Rate: a number of Mbit/s above 0.' };
  if (delay !== undefined && !(delay >= 0 && delay <= 60_000)) return { error: 'Delay: milliseconds, 0 or more.' };
  if (loss !== undefined && !(loss >= 0 && loss <= 100)) return { error: 'Loss: a percentage from 0 to 100.' };
  const shaping: WizardShaping = { ...(rate !== undefined ? { rateMbit: rate } : {}), ...(delay ? { delayMs: delay } : {}), ...(loss ? { lossPercent: loss } : {}) };
  return Object.keys(shaping).length > 0 ? { shaping } : {};
}

/**
 * Which tests, which way, how many streams and repetitions, and (for local
 * hosts) the link's shaping. Delay and loss need the kernel's netem: without
 * it they are disabled and the local plugin's reason is shown.
 */
export function TestsStep({
  value,
  set,
  hasLocal,
  allLocal,
  checks,
  onBack,
  onNext,
}: {
  value: TestSettings;
  set(next: TestSettings): void;
  hasLocal: boolean;
  allLocal: boolean;
  checks: WizardChecks | undefined;
  onBack(): void;
  onNext(): void;
}) {
  const { tools } = value;
  const shaping = shapingOf(value.shaping);
  const netem = checks?.shaping.netem;
  const rateOk = checks?.shaping.rate.ok ?? true;
  const int = (text: string, min: number, max: number) => Math.min(max, Math.max(min, Math.round(Number(text) || min)));
  // Migrates answers kept from before the load tool existed.
  const loadTest = value.loadTest ?? 'rrul';
  const bulk = bulkDirections({ tools, netperfTests: value.netperfTests, direction: value.direction, loadTest });
  const rateMeasured = bulk.forward || bulk.reverse;
  const bad = tools.length === 0 || (tools.includes('netperf') && value.netperfTests.length === 0) || shaping.error !== undefined;
  return (
    <fieldset className="panel" data-testid="tests-step">
      <legend>Which tests, which way, how long?</legend>
      <div className="tests-grid">
        <div>
          <h3>Tools</h3>
          {(['ping', 'netperf', 'iperf3', 'load'] as const).map((t) => (
            <label key={t} className="choice">
              <input type="checkbox" checked={tools.includes(t)} onChange={(e) => set({ ...value, tools: e.target.checked ? [...tools, t] : tools.filter((x) => x !== t) })} />
              <span>
                <strong>{t}</strong> <span className="muted">{TOOL_TEXT[t]}</span>
              </span>
            </label>
          ))}
          {tools.includes('netperf') && (
            <fieldset className="sub" aria-label="netperf tests">
              <legend className="small">netperf tests</legend>
              {NETPERF_CHOICES.map(({ test, text }) => (
                <label key={test} className="choice small">
                  <input
                    type="checkbox"
                    checked={value.netperfTests.includes(test)}
                    onChange={(e) => set({ ...value, netperfTests: e.target.checked ? [...value.netperfTests, test] : value.netperfTests.filter((x) => x !== test) })}
                  />
                  <span>
                    <code>{test}</code> <span className="muted">{text}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {tools.includes('load') && (
            <label className="block">
              Latency-under-load test
              <select value={loadTest} onChange={(e) => set({ ...value, loadTest: e.target.value as WizardLoadTest })} data-testid="load-test">
                {LOAD_CHOICES.map(({ test, text }) => (
                  <option key={test} value={test}>
                    {text}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <div>
          <h3>Traffic</h3>
          <fieldset className="sub" aria-label="Direction">
            <legend className="small">Direction</legend>
            {(
              [
                ['forward', 'client → server'],
                ['reverse', 'server → client'],
                ['both', 'both (one trial each)'],
              ] as const
            ).map(([d, text]) => (
              <label key={d} className="inline-choice">
                <input type="radio" name="direction" checked={value.direction === d} onChange={() => set({ ...value, direction: d })} /> {text}
              </label>
            ))}
          </fieldset>
          <label className="block">
            Parallel streams (iperf3, netperf)
            <input type="number" min={1} max={128} value={value.streams} onChange={(e) => set({ ...value, streams: int(e.target.value, 1, 128) })} />
          </label>
          <label className="block">
            iperf3 protocol
            <select value={value.protocol} onChange={(e) => set({ ...value, protocol: e.target.value as TestSettings['protocol'] })} disabled={!tools.includes('iperf3')}>
              <option value="tcp">TCP</option>
              <option value="udp">UDP</option>
              <option value="both">TCP and UDP (one trial each)</option>
            </select>
          </label>
          <label className="block">
            Seconds per test and host pair
            <input type="number" min={1} max={3600} value={value.duration} onChange={(e) => set({ ...value, duration: int(e.target.value, 1, 3600) })} />
          </label>
          <label className="block">
            Repetitions (random order)
            <input type="number" min={1} max={100} value={value.repetitions} onChange={(e) => set({ ...value, repetitions: int(e.target.value, 1, 100) })} />
          </label>
          <p className="muted small">
            Every trial runs this many times, interleaved in random order, so each run&apos;s figure is the median of several and configurations of this run can be told apart:
            compared within the run, its repetitions are the replicates (with 3, Welch&apos;s t-test on logarithms decides a single figure, assuming log-normal noise; with 4 and
            more a rank test, without). Against another run, the run is the replicate — repetitions share their run&apos;s moment and machine — so run the spec several times a side
            to test runs.
          </p>
        </div>
        {hasLocal && (
          <div data-testid="shaping">
            <h3>Shaping (local lab)</h3>
            <p className="muted small" data-testid="shaping-where">
              With tc on the local hosts&apos; egress: the rate on the ends that send bulk traffic (
              {bulk.forward && bulk.reverse ? 'client and server' : bulk.forward ? 'the client' : bulk.reverse ? 'the server' : 'none'}), delay and loss on every local host.
              {allLocal ? '' : ' Hosts that are not local are not shaped.'}
            </p>
            <label className="block">
              Rate, Mbit/s
              <input
                inputMode="decimal"
                value={value.shaping.rate}
                placeholder="unlimited"
                disabled={!rateOk}
                onChange={(e) => set({ ...value, shaping: { ...value.shaping, rate: e.target.value } })}
              />
            </label>
            {!rateOk && <p className="warn-text small">{checks?.shaping.rate.detail}</p>}
            {rateOk && !rateMeasured && value.shaping.rate.trim() !== '' && (
              <p className="warn-text small" data-testid="rate-unmeasured">
                No chosen test sends bulk traffic (ping and request/response only): the rate is not written. Add iperf3, netperf TCP_STREAM or latency under load to measure it.
              </p>
            )}
            <label className="block">
              Delay, ms (one way)
              <input
                inputMode="decimal"
                value={value.shaping.delay}
                placeholder="none"
                disabled={netem?.ok !== true}
                aria-describedby="netem-why"
                onChange={(e) => set({ ...value, shaping: { ...value.shaping, delay: e.target.value } })}
              />
            </label>
            <label className="block">
              Loss, %
              <input
                inputMode="decimal"
                value={value.shaping.loss}
                placeholder="none"
                disabled={netem?.ok !== true}
                aria-describedby="netem-why"
                onChange={(e) => set({ ...value, shaping: { ...value.shaping, loss: e.target.value } })}
              />
            </label>
            <p id="netem-why" className={netem?.ok ? 'muted small' : 'warn-text small'} data-testid="netem-why">
              {netem === undefined ? 'Checking what this kernel can shape…' : netem.ok ? 'Delay and loss use netem (available).' : `Delay and loss need netem: ${netem.detail}.`}
            </p>
            {shaping.error && (
              <p className="error-text small" role="alert">
                {shaping.error}
              </p>
            )}
          </div>
        )}
      </div>
      {tools.length === 0 && <p className="error-text">Pick at least one test.</p>}
      {tools.includes('netperf') && value.netperfTests.length === 0 && <p className="error-text">Pick at least one netperf test.</p>}
      <div className="row">
        <button type="button" onClick={onBack}>
          Back
        </button>
        <button type="button" className="primary" disabled={bad} onClick={onNext}>
          Next: review
        </button>
      </div>
    </fieldset>
  );
}
