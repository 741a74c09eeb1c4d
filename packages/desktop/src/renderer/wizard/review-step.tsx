import { useEffect, useRef, useState } from 'react';
import type { SpecCheck } from '../../shared/bridge-types';
import { BridgeCallError, call } from '../lib/bridge-client';
import { formatDuration } from '../lib/format';
import { go } from '../lib/route';
import { groupTrials, largeCostShares } from './plan-groups';
import { Preflight } from './preflight';
import { RunChecks, useRunChecks } from './run-checks';
import { SpecEditor } from './spec-editor';
import { useKept } from './wizard-store';

/** Review: the YAML (editable, validated as you type), the plan, the cost and the max-cost guard, then Run. */
export function ReviewStep({ text, setText }: { text: string; setText(text: string): void }) {
  const [check, setCheck] = useState<SpecCheck | undefined>();
  const [checking, setChecking] = useState(true);
  const [maxCost, setMaxCost] = useKept('maxCost', '');
  const [starting, setStarting] = useState(false);
  const [runError, setRunError] = useState<string | undefined>();
  const [saveName, setSaveName] = useKept('saveName', 'my-spec.yaml');
  const [saved, setSaved] = useState<string | undefined>();
  const generation = useRef(0);
  const [override, setOverride] = useState(false);
  const clouds = check?.ok ? check.plan.hosts.map((h) => h.cloud) : [];
  const hosts = check?.ok ? check.plan.hosts : [];
  const accountSetOn = new Set(clouds.filter((c) => hosts.filter((h) => h.cloud === c).every((h) => h.account !== undefined)));
  const { checks, blocking } = useRunChecks(clouds, accountSetOn);

  const maxCostUsd = maxCost.trim() === '' ? undefined : Number(maxCost);
  const maxCostValid = maxCostUsd === undefined || (Number.isFinite(maxCostUsd) && maxCostUsd >= 0);

  useEffect(() => {
    const mine = ++generation.current;
    setChecking(true);
    // Validate 300 ms after the last keystroke; only the newest answer is shown.
    const timer = setTimeout(() => {
      call('checkSpec', { text, ...(maxCostValid && maxCostUsd !== undefined ? { maxCostUsd } : {}) }).then(
        (result) => {
          if (mine === generation.current) {
            setCheck(result);
            setChecking(false);
          }
        },
        (error: unknown) => {
          if (mine === generation.current) {
            setCheck({ ok: false, warnings: [], issues: [{ file: 'spec.yaml', line: 0, col: 0, path: '', message: (error as Error).message }] });
            setChecking(false);
          }
        },
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [text, maxCost]);

  const canRun = !checking && check?.ok === true && !check.overBudget && maxCostValid && !starting && (blocking.length === 0 || override);
  const run = async () => {
    setStarting(true);
    setRunError(undefined);
    try {
      const { runId } = await call('startRun', { text, ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) });
      go('live', runId);
    } catch (error) {
      setRunError(error instanceof BridgeCallError && error.issues ? `${error.issues.length} problem(s) in the spec` : (error as Error).message);
      setStarting(false);
    }
  };
  const save = async () => {
    try {
      const entry = await call('saveSpec', { name: saveName, text });
      setSaved(`Saved as ${entry.name}`);
    } catch (error) {
      setSaved(`Not saved: ${(error as Error).message}`);
    }
  };

  return (
    <div className="review">
      <div className="review-editor">
        <h2>Spec</h2>
        <SpecEditor text={text} onChange={setText} issues={check && !check.ok ? check.issues : []} />
        <div className="row">
          <label>
            Save as <input value={saveName} onChange={(e) => setSaveName(e.target.value)} aria-label="File name to save the spec as" />
          </label>
          <button type="button" onClick={save}>
            Save spec
          </button>
          {saved && (
            <span role="status" className="muted">
              {saved}
            </span>
          )}
        </div>
      </div>
      <aside className="review-side">
        <h2>Plan</h2>
        <div role="status" aria-live="polite" data-testid="spec-status" className={check?.ok ? 'ok-text' : 'error-text'}>
          {checking
            ? 'Checking…'
            : check?.ok
              ? `Valid: ${check.plan.trials.length} trials on ${check.plan.hosts.length} hosts, about ${formatDuration(check.plan.estimatedSeconds * 1000)}`
              : `Invalid: ${check?.issues.length ?? 0} problem(s) — fix them to run`}
        </div>
        {check?.ok && (
          <>
            <table className="data-table compact" data-testid="plan-hosts">
              <caption>Hosts</caption>
              <thead>
                <tr>
                  <th scope="col">host</th>
                  <th scope="col">cloud</th>
                  <th scope="col">zone</th>
                  <th scope="col">machine</th>
                </tr>
              </thead>
              <tbody>
                {check.plan.hosts.map((h) => (
                  <tr key={h.name}>
                    <td>{h.name}</td>
                    <td>{h.cloud}</td>
                    <td>{h.zone ?? '—'}</td>
                    <td>{h.machineType ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="table-scroll short">
              <table className="data-table compact" data-testid="plan-trials">
                <caption>Trials: {groupTrials(check.plan.trials).length} configurations</caption>
                <thead>
                  <tr>
                    <th scope="col">client → server</th>
                    <th scope="col">tool</th>
                    <th scope="col">test</th>
                    <th scope="col">parameters</th>
                    <th scope="col" className="num">
                      n
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {groupTrials(check.plan.trials).map((g) => (
                    <tr key={`${g.client}|${g.server}|${g.tool}|${g.test}|${g.params}`}>
                      <td>
                        {g.client} → {g.server}
                      </td>
                      <td>{g.tool}</td>
                      <td>{g.test}</td>
                      <td className="small">{g.params}</td>
                      <td className="num">{g.n}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h2>Cost</h2>
            <p data-testid="cost-total">
              <strong>Estimated ${check.cost.usd.toFixed(2)}</strong> ({formatDuration(check.cost.hostSeconds * 1000)} per host)
            </p>
            {largeCostShares(check.cost).map((c) => (
              <p key={`${c.cloud}|${c.description}`} className="warn-text small" data-testid="cost-share">
                {c.cloud} {c.description}: ${c.usd.toFixed(2)} of ${check.cost.usd.toFixed(2)} ({Math.round(c.share * 100)}% of the estimate)
                {/egress|outside|internet/i.test(c.description) ? ' — traffic leaving the cloud, e.g. cross-cloud pairs; measuring within each cloud avoids it' : ''}
              </p>
            ))}
            <ul className="plain small" data-testid="cost-items">
              {check.cost.clouds.map((c) => (
                <li key={c.cloud}>
                  {c.cloud}: {c.hosts} host(s) — {c.usd !== undefined ? `$${c.usd.toFixed(2)}` : c.note}
                  {c.priceTableDate ? <span className="muted"> (prices of {c.priceTableDate})</span> : null}
                  {c.items && c.items.length > 0 && (
                    <table className="data-table compact">
                      <thead>
                        <tr>
                          <th scope="col">item</th>
                          <th scope="col">quantity</th>
                          <th scope="col">unit price</th>
                          <th scope="col">USD</th>
                        </tr>
                      </thead>
                      <tbody>
                        {c.items.map((item) => (
                          <tr key={item.description}>
                            <td>{item.description}</td>
                            <td>
                              {Number(item.quantity.toPrecision(3))} {item.unit}
                            </td>
                            <td>${item.unitPriceUsd}</td>
                            <td>${item.usd.toFixed(2)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
        <label className="block">
          Max cost (USD, optional)
          <input inputMode="decimal" value={maxCost} onChange={(e) => setMaxCost(e.target.value)} aria-invalid={!maxCostValid} placeholder="no limit" />
        </label>
        {!maxCostValid && <p className="error-text">Max cost must be a number ≥ 0.</p>}
        {check?.ok && check.overBudget && (
          <p className="error-text" role="alert">
            The estimate ${check.cost.usd.toFixed(2)} is above the max cost: the run would be refused.
          </p>
        )}
        {check && check.warnings.length > 0 && (
          <ul className="plain small warn-text" data-testid="spec-warnings">
            {check.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
        <RunChecks checks={checks} blocking={blocking} override={override} setOverride={setOverride} />
        {check?.ok && !checking && <Preflight text={text} clouds={[...new Set(check.plan.hosts.map((h) => h.cloud))]} />}
        <button type="button" className="primary big" disabled={!canRun} onClick={run} data-testid="run-button">
          {starting ? 'Starting…' : 'Run'}
        </button>
        {runError && (
          <p className="error-text" role="alert">
            {runError}
          </p>
        )}
      </aside>
    </div>
  );
}
