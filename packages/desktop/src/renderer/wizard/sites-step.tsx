import type { Dispatch, SetStateAction } from 'react';
import { AZURE_SUBSCRIPTION_HINT, AZURE_SUBSCRIPTION_RE, GCP_PROJECT_HINT, GCP_PROJECT_RE } from '../../shared/account-ids';
import type { WizardAccounts, WizardPairs, WizardSite } from '../../shared/bridge-types';
import { Loaded } from '../lib/status';
import { useCall } from '../lib/use-call';
import { CloudSiteFields } from './cloud-site-fields';

/** Where to measure: cloud zones and machine types (from the installed cloud plugins), SSH machines, or this machine's lab. */
export function SitesStep({
  sites,
  setSites,
  pairs,
  setPairs,
  accounts,
  setAccounts,
  onNext,
  onBack,
}: {
  sites: WizardSite[];
  setSites: Dispatch<SetStateAction<WizardSite[]>>;
  pairs: WizardPairs;
  setPairs(p: WizardPairs): void;
  accounts: WizardAccounts;
  setAccounts(a: WizardAccounts): void;
  onNext(): void;
  onBack(): void;
}) {
  const catalog = useCall('catalog', {}, 'catalog');
  // Functional: several rows may fill themselves from their catalogs in the same render.
  const update = (i: number, site: WizardSite) => setSites((current) => current.map((s, j) => (j === i ? site : s)));
  const sshIncomplete = sites.some((s) => s.kind === 'ssh' && s.address.trim() === '');
  const cloudIncomplete = sites.some((s) => s.kind === 'cloud' && (s.zone === '' || s.machineType === ''));
  const clouds = new Set(sites.flatMap((s) => (s.kind === 'cloud' ? [s.cloud] : [])));
  const count = pairCounts(sites);
  const withinNone = pairs === 'within-cloud' && count.within === 0;
  const projectBad = clouds.has('gcp') && !!accounts.gcpProject && !GCP_PROJECT_RE.test(accounts.gcpProject);
  const subscriptionBad = clouds.has('azure') && !!accounts.azureSubscription && !AZURE_SUBSCRIPTION_RE.test(accounts.azureSubscription);

  return (
    <fieldset className="panel">
      <legend>Where? (at least two places; every pair is measured, cross-cloud pairs on request)</legend>
      <Loaded state={catalog} what="cloud plugins">
        {(cat) => (
          <>
            {sites.map((site, i) => {
              return (
                <div key={i} className="site-row" data-testid="site-row">
                  <label>
                    Place {i + 1}{' '}
                    <select
                      value={site.kind === 'cloud' ? `cloud:${site.cloud}` : site.kind}
                      onChange={(e) => {
                        const v = e.target.value;
                        if (v === 'local') update(i, { kind: 'local' });
                        else if (v === 'ssh') update(i, { kind: 'ssh', address: '' });
                        // Zone and machine type are filled from the cloud's catalog once it has loaded.
                        else update(i, { kind: 'cloud', cloud: v.slice('cloud:'.length), zone: '', machineType: '' });
                      }}
                    >
                      <option value="local">this machine (local lab)</option>
                      <option value="ssh">a machine I have (SSH)</option>
                      {cat.clouds
                        .filter((c) => c.cloud !== 'local' && c.cloud !== 'static')
                        .map((c) => (
                          <option key={c.cloud} value={`cloud:${c.cloud}`}>
                            {c.cloud} {c.version ? `(${c.version})` : ''}
                          </option>
                        ))}
                    </select>
                  </label>
                  {site.kind === 'cloud' && (
                    <CloudSiteFields
                      key={site.cloud}
                      index={i}
                      site={site}
                      update={(next) => update(i, next)}
                      earlierZones={zonesBefore(sites, i, site.cloud)}
                      position={sites.slice(0, i).filter((s) => s.kind === 'cloud' && s.cloud === site.cloud).length}
                    />
                  )}
                  {site.kind === 'ssh' && (
                    <>
                      <label>
                        Address{' '}
                        <input
                          value={site.address}
                          placeholder="host or IP"
                          onChange={(e) => update(i, { ...site, address: e.target.value.trim() })}
                          aria-invalid={site.address === ''}
                        />
                      </label>
                      <label>
                        User <input value={site.user ?? ''} onChange={(e) => update(i, withOptional(site, 'user', e.target.value.trim()))} />
                      </label>
                      <label>
                        Key file <input value={site.key ?? ''} placeholder="~/.ssh/id_ed25519" onChange={(e) => update(i, withOptional(site, 'key', e.target.value.trim()))} />
                      </label>
                    </>
                  )}
                  <button type="button" aria-label={`Remove place ${i + 1}`} disabled={sites.length <= 2} onClick={() => setSites(sites.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </div>
              );
            })}
            <div className="row">
              <button type="button" onClick={() => setSites([...sites, { kind: 'local' }])}>
                Add a place
              </button>
            </div>
            {count.cross > 0 && (
              <fieldset className="sub" aria-label="Pairs" data-testid="pairs">
                <legend className="small">Which pairs?</legend>
                <label className="choice small">
                  <input type="radio" name="pairs" checked={pairs === 'within-cloud'} onChange={() => setPairs('within-cloud')} />
                  <span>
                    Within each cloud — {count.within} pair(s){count.within === 0 ? ' (none: each cloud has one place)' : ''}
                  </span>
                </label>
                <label className="choice small">
                  <input type="radio" name="pairs" checked={pairs === 'all'} onChange={() => setPairs('all')} />
                  <span>
                    Also across clouds — {count.within + count.cross} pair(s): the {count.cross} cross-cloud pair(s) go over the internet and pay its egress, usually most of the
                    cost
                  </span>
                </label>
              </fieldset>
            )}
            {clouds.has('gcp') && (
              <label className="block">
                GCP project <span className="muted small">(empty: GOOGLE_CLOUD_PROJECT, the ADC file, then gcloud&apos;s project)</span>
                <input
                  value={accounts.gcpProject ?? ''}
                  placeholder="my-project-id"
                  aria-invalid={projectBad}
                  data-testid="gcp-project"
                  onChange={(e) => setAccounts(withAccount(accounts, 'gcpProject', e.target.value.trim()))}
                />
              </label>
            )}
            {projectBad && <p className="error-text small">Expected {GCP_PROJECT_HINT}.</p>}
            {clouds.has('azure') && (
              <label className="block">
                Azure subscription <span className="muted small">(empty: AZURE_SUBSCRIPTION_ID, then the Azure CLI&apos;s default)</span>
                <input
                  value={accounts.azureSubscription ?? ''}
                  placeholder="00000000-0000-0000-0000-000000000000"
                  aria-invalid={subscriptionBad}
                  data-testid="azure-subscription"
                  onChange={(e) => setAccounts(withAccount(accounts, 'azureSubscription', e.target.value.trim()))}
                />
              </label>
            )}
            {subscriptionBad && <p className="error-text small">Expected {AZURE_SUBSCRIPTION_HINT}.</p>}
            {clouds.size > 0 && <p className="muted small">Identifiers only: credentials stay where each cloud&apos;s tools keep them (never in the spec).</p>}
            {[...clouds].map((cloud) => (
              <CloudFieldList key={cloud} cloud={cloud} />
            ))}
          </>
        )}
      </Loaded>
      {sshIncomplete && <p className="error-text">Give every SSH machine an address.</p>}
      {cloudIncomplete && <p className="error-text">Give every cloud machine a zone and a machine type.</p>}
      {withinNone && <p className="error-text">Every pair crosses clouds: measure across clouds, or add a second place on one cloud.</p>}
      <div className="row">
        <button type="button" onClick={onBack}>
          Back
        </button>
        <button type="button" className="primary" disabled={sshIncomplete || cloudIncomplete || sites.length < 2 || withinNone || projectBad || subscriptionBad} onClick={onNext}>
          Next: tests
        </button>
      </div>
    </fieldset>
  );
}

/** Zones of the places before place `i` on the same cloud (the next place starts on the next zone). */
function zonesBefore(sites: readonly WizardSite[], i: number, cloud: string): string[] {
  return sites.slice(0, i).flatMap((s) => (s.kind === 'cloud' && s.cloud === cloud && s.zone !== '' ? [s.zone] : []));
}

/** Pairs of places on one cloud (or not both on clouds) and pairs of two different clouds. */
function pairCounts(sites: readonly WizardSite[]): { within: number; cross: number } {
  let within = 0;
  let cross = 0;
  for (let a = 0; a < sites.length; a++) {
    for (let b = a + 1; b < sites.length; b++) {
      const x = sites[a]!;
      const y = sites[b]!;
      if (x.kind === 'cloud' && y.kind === 'cloud' && x.cloud !== y.cloud) cross++;
      else within++;
    }
  }
  return { within, cross };
}

function withAccount(accounts: WizardAccounts, key: keyof WizardAccounts, value: string): WizardAccounts {
  const { [key]: _drop, ...rest } = accounts;
  return value === '' ? rest : { ...rest, [key]: value };
}

function withOptional(site: Extract<WizardSite, { kind: 'ssh' }>, key: 'user' | 'key', value: string): WizardSite {
  const { [key]: _drop, ...rest } = site;
  return value === '' ? rest : { ...rest, [key]: value };
}

/** The plugin's other host fields, loaded when its cloud is picked (importing a cloud SDK takes a while). */
function CloudFieldList({ cloud }: { cloud: string }) {
  const fields = useCall('cloudFields', { cloud }, cloud);
  return (
    <details className="small">
      <summary>More {cloud} host fields (set them in the YAML on the review step)</summary>
      <Loaded state={fields} what={`${cloud} fields`}>
        {(list) => (
          <ul className="plain">
            {list.map((f) => (
              <li key={f.name}>
                <code>{f.name}</code> {f.description}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </details>
  );
}
