import { useEffect, useState } from 'react';
import type { PreflightFindings } from '../../shared/bridge-types';
import { call } from '../lib/bridge-client';

/** Clouds on this machine: their preflight asks only the kernel and the local daemons, so it runs by itself. */
const THIS_MACHINE = new Set(['local', 'docker']);

/**
 * Each cloud's own preflight on the spec's hosts — what Run does first,
 * before anything is created (netem or a congestion control the kernel lacks,
 * credentials, quotas). This machine's clouds are checked by themselves on
 * every valid spec; a remote cloud's preflight calls its API, so it runs when asked.
 */
export function Preflight({ text, clouds }: { text: string; clouds: readonly string[] }) {
  const local = clouds.filter((c) => THIS_MACHINE.has(c)).sort();
  const remote = clouds.filter((c) => !THIS_MACHINE.has(c)).sort();
  const [findings, setFindings] = useState<PreflightFindings['clouds']>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const runFor = (which: readonly string[], keep: PreflightFindings['clouds']) => {
    let live = true;
    // A new spec's findings replace the old ones: never a stale verdict beside a changed spec.
    setFindings(keep);
    setBusy(true);
    setError(undefined);
    call('preflightSpec', { text, clouds: [...which] }).then(
      (answer) => {
        if (live) {
          setFindings([...keep, ...answer.clouds]);
          setBusy(false);
        }
      },
      (e: unknown) => {
        if (live) {
          setError((e as Error).message);
          setBusy(false);
        }
      },
    );
    return () => {
      live = false;
    };
  };
  useEffect(() => (local.length > 0 ? runFor(local, []) : (setFindings([]), undefined)), [text, local.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps -- rerun on a new spec only

  if (clouds.length === 0) return null;
  const checked = new Set(findings.map((f) => f.cloud));
  return (
    <div className="panel run-checks" data-testid="preflight">
      <h3>Preflight (each cloud&apos;s own checks, nothing created)</h3>
      {busy && (
        <p className="muted small" role="status">
          Checking…
        </p>
      )}
      <ul className="plain small" data-testid="preflight-findings">
        {findings.map((f) => (
          <li key={f.cloud} className={f.ok ? 'ok-text' : 'warn-text'}>
            {f.ok ? '✓' : '✗'} {f.cloud}: {f.detail}
            {f.ok ? '' : ' — Run would stop here'}
          </li>
        ))}
      </ul>
      {remote.some((c) => !checked.has(c)) && (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            runFor(
              remote,
              findings.filter((f) => THIS_MACHINE.has(f.cloud)),
            )
          }
          data-testid="preflight-remote"
        >
          Check {remote.join(', ')} too (calls their APIs: credentials, quotas)
        </button>
      )}
      {error && (
        <p className="error-text small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
