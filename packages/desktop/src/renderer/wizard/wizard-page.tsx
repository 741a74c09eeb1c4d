import { useState } from 'react';
import type { Question, WizardAccounts, WizardAnswers, WizardNetperfTest, WizardPairs, WizardSite, WizardTool } from '../../shared/bridge-types';
import { call } from '../lib/bridge-client';
import { Loaded } from '../lib/status';
import { useCall } from '../lib/use-call';
import { ReviewStep } from './review-step';
import { SitesStep } from './sites-step';
import { shapingOf, type TestSettings, TestsStep } from './tests-step';
import { useKept } from './wizard-store';

const STEPS = ['Question', 'Where', 'Tests', 'Review'] as const;

const QUESTIONS: { id: Question; title: string; detail: string; tools: WizardTool[]; netperf: WizardNetperfTest[]; streams: number; protocol: TestSettings['protocol'] }[] = [
  {
    id: 'latency',
    title: 'Latency between zones or regions',
    detail: 'ping and netperf TCP_RR: percentiles of round-trip time.',
    tools: ['ping', 'netperf'],
    netperf: ['TCP_RR'],
    streams: 1,
    protocol: 'tcp',
  },
  {
    id: 'throughput',
    title: 'Throughput',
    detail: 'iperf3 (time series) and netperf TCP_STREAM.',
    tools: ['iperf3', 'netperf'],
    netperf: ['TCP_STREAM'],
    streams: 2,
    protocol: 'tcp',
  },
  {
    id: 'pps',
    title: 'Packets per second',
    detail: 'Small packets: netperf UDP_STREAM with 64-byte datagrams and 1-byte UDP_RR transactions (iperf3 UDP, if added, sends 64-byte datagrams at 2 Gbit/s).',
    tools: ['netperf'],
    netperf: ['UDP_RR', 'UDP_STREAM'],
    streams: 1,
    protocol: 'udp',
  },
  {
    id: 'load',
    title: 'Latency under load (bufferbloat)',
    detail: "flent's rrul: TCP flows fill the link both ways while ping and UDP probes measure round trips, idle before and after.",
    tools: ['load'],
    netperf: ['TCP_RR'],
    streams: 1,
    protocol: 'tcp',
  },
  {
    id: 'onprem',
    title: 'On-premises ↔ cloud',
    detail: 'Your machines over SSH against cloud machines: latency and throughput.',
    tools: ['ping', 'netperf', 'iperf3'],
    netperf: ['TCP_RR', 'TCP_STREAM'],
    streams: 1,
    protocol: 'tcp',
  },
];

/** The guided comparison: question → where → tests and duration → review and run. */
export function WizardPage() {
  const [step, setStep] = useKept('step', 0);
  const [question, setQuestion] = useKept<Question>('question', 'latency');
  const [name, setName] = useKept('name', 'my-comparison');
  const [sites, setSites] = useKept<WizardSite[]>('sites', [{ kind: 'local' }, { kind: 'local' }]);
  const [pairs, setPairs] = useKept<WizardPairs>('pairs', 'within-cloud');
  const [accounts, setAccounts] = useKept<WizardAccounts>('accounts', {});
  const [tests, setTests] = useKept<TestSettings>('tests', {
    tools: ['ping', 'netperf'],
    duration: 5,
    direction: 'forward',
    streams: 1,
    protocol: 'tcp',
    netperfTests: ['TCP_RR'],
    repetitions: 3,
    loadTest: 'rrul',
    shaping: { rate: '', delay: '', loss: '' },
  });
  const checks = useCall('wizardChecks', { clouds: [] }, 'wizard-checks');
  const [text, setText] = useKept('text', '');
  const [error, setError] = useState<string | undefined>();
  const specs = useCall('listSpecs', {}, 'specs');

  const toReview = async () => {
    setError(undefined);
    const { shaping } = shapingOf(tests.shaping);
    const answers: WizardAnswers = {
      name,
      question,
      sites,
      tools: tests.tools,
      durationSeconds: tests.duration,
      direction: tests.direction,
      streams: tests.streams,
      protocol: tests.protocol,
      netperfTests: tests.netperfTests,
      repetitions: tests.repetitions,
      loadTest: tests.loadTest,
      pairs,
      ...accountsFor(sites, accounts),
      ...(shaping && sites.some((s) => s.kind === 'local') ? { shaping } : {}),
    };
    try {
      setText((await call('generateSpec', answers)).text);
      setStep(3);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const startFrom = async (value: string) => {
    if (!value) return;
    const [source, file] = value.split(':') as ['example' | 'saved', string];
    try {
      setText((await call('readSpec', { source, name: file })).text);
      setStep(3);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <section aria-labelledby="wizard-title">
      <div className="page-head">
        <h1 id="wizard-title">New comparison</h1>
        <Loaded state={specs} what="specs">
          {(list) => (
            <label className="inline">
              Or start from a spec{' '}
              <select defaultValue="" onChange={(e) => void startFrom(e.target.value)} data-testid="start-from">
                <option value="">choose…</option>
                <optgroup label="Examples">
                  {list
                    .filter((s) => s.source === 'example')
                    .map((s) => (
                      <option key={s.name} value={`example:${s.name}`}>
                        {s.name}
                      </option>
                    ))}
                </optgroup>
                <optgroup label="Saved">
                  {list
                    .filter((s) => s.source === 'saved')
                    .map((s) => (
                      <option key={s.name} value={`saved:${s.name}`}>
                        {s.name}
                      </option>
                    ))}
                </optgroup>
              </select>
            </label>
          )}
        </Loaded>
      </div>
      <ol className="steps" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s} aria-current={i === step ? 'step' : undefined} className={i === step ? 'current' : i < step ? 'done' : ''}>
            <button type="button" className="link" disabled={i === 3 && text === ''} onClick={() => (i === 3 ? setStep(3) : setStep(i))}>
              {i + 1}. {s}
            </button>
          </li>
        ))}
      </ol>

      {step === 0 && (
        <fieldset className="panel">
          <legend>What do you want to know?</legend>
          {QUESTIONS.map((q) => (
            <label key={q.id} className="choice">
              <input
                type="radio"
                name="question"
                checked={question === q.id}
                onChange={() => {
                  setQuestion(q.id);
                  setTests({ ...tests, tools: q.tools, netperfTests: q.netperf, streams: q.streams, protocol: q.protocol });
                  if (q.id === 'onprem' && !sites.some((s) => s.kind === 'ssh')) setSites([{ kind: 'ssh', address: '' }, ...sites.slice(1)]);
                }}
              />
              <span>
                <strong>{q.title}</strong>
                <br />
                <span className="muted">{q.detail}</span>
              </span>
            </label>
          ))}
          <label className="block">
            Name <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <div className="row">
            <button type="button" className="primary" onClick={() => setStep(1)}>
              Next: where
            </button>
          </div>
        </fieldset>
      )}

      {step === 1 && (
        <SitesStep
          sites={sites}
          setSites={setSites}
          pairs={pairs}
          setPairs={setPairs}
          accounts={accounts}
          setAccounts={setAccounts}
          onNext={() => setStep(2)}
          onBack={() => setStep(0)}
        />
      )}

      {step === 2 && (
        <TestsStep
          value={tests}
          set={setTests}
          hasLocal={sites.some((s) => s.kind === 'local')}
          allLocal={sites.every((s) => s.kind === 'local')}
          checks={checks.data}
          onBack={() => setStep(1)}
          onNext={() => void toReview()}
        />
      )}

      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {step === 3 && <ReviewStep text={text} setText={setText} />}
    </section>
  );
}

/** The project and subscription of the clouds picked (an answer for a cloud no longer picked is left out). */
function accountsFor(sites: readonly WizardSite[], accounts: WizardAccounts): { accounts?: WizardAccounts } {
  const clouds = new Set(sites.flatMap((s) => (s.kind === 'cloud' ? [s.cloud] : [])));
  const out: WizardAccounts = {
    ...(clouds.has('gcp') && accounts.gcpProject ? { gcpProject: accounts.gcpProject } : {}),
    ...(clouds.has('azure') && accounts.azureSubscription ? { azureSubscription: accounts.azureSubscription } : {}),
  };
  return Object.keys(out).length > 0 ? { accounts: out } : {};
}
