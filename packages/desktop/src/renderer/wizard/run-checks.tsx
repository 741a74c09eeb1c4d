import type { WizardChecks } from '../../shared/bridge-types';
import { useCall } from '../lib/use-call';

/** Checks without which a run cannot provision: credentials, and the project or subscription they act on. */
const BLOCKING = new Set(['credentials', 'project', 'subscription']);

/**
 * Before Run, without network calls: each cloud of the plan's offline doctor
 * checks (credentials found, project or subscription set). A cloud whose
 * credentials, project or subscription are not found blocks Run unless the
 * user says the cloud finds them where the check cannot see (instance
 * metadata, a managed identity, a project set on the hosts in the YAML).
 */
export function useRunChecks(clouds: readonly string[], accountSetOn: ReadonlySet<string> = new Set()): { checks: WizardChecks | undefined; blocking: string[] } {
  const list = [...new Set(clouds)].filter((c) => c !== 'local' && c !== 'static').sort();
  const answer = useCall('wizardChecks', { clouds: list }, `run-checks:${list.join(',')}`);
  // Every host of the cloud names its project or subscription in the spec: the environment's default is not needed.
  const checks = answer.data && {
    ...answer.data,
    clouds: answer.data.clouds.map((c) =>
      !accountSetOn.has(c.cloud)
        ? c
        : {
            ...c,
            checks: c.checks.map((k) =>
              k.ok || (k.name !== 'project' && k.name !== 'subscription') ? k : { name: k.name, ok: true, detail: `set on every ${c.cloud} host in the spec` },
            ),
          },
    ),
  };
  const blocking = [...new Set((checks?.clouds ?? []).flatMap((c) => c.checks.filter((k) => !k.ok && BLOCKING.has(k.name)).map(() => c.cloud)))];
  return { checks, blocking };
}

export function RunChecks({
  checks,
  override,
  setOverride,
  blocking,
}: {
  checks: WizardChecks | undefined;
  blocking: readonly string[];
  override: boolean;
  setOverride(v: boolean): void;
}) {
  if (!checks || checks.clouds.length === 0) return null;
  return (
    <div className="panel run-checks" data-testid="run-checks">
      <h3>Before you run (checked here, nothing sent)</h3>
      <ul className="plain small">
        {checks.clouds.flatMap((c) =>
          c.checks.map((k) => (
            <li key={`${c.cloud}-${k.name}`} className={k.ok ? 'ok-text' : 'warn-text'}>
              {k.ok ? '✓' : '✗'} {c.cloud} {k.name}: {k.detail}
              {!k.ok && k.fix ? (
                <>
                  {' '}
                  — <span className="muted">{k.fix}</span>
                </>
              ) : null}
            </li>
          )),
        )}
      </ul>
      {blocking.length > 0 && (
        <label className="small">
          <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} data-testid="run-anyway" /> Run anyway: {blocking.join(', ')} will find what
          these checks did not (instance metadata, a managed identity, a project set in the YAML)
        </label>
      )}
    </div>
  );
}
