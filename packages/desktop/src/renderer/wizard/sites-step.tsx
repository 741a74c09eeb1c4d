import type { Dispatch, SetStateAction } from 'react';
import type { WizardSite } from '../../shared/bridge-types';
import { useCall } from '../lib/use-call';
import { Loaded } from '../lib/status';
import { CloudSiteFields } from './cloud-site-fields';

/** Where to measure: cloud zones and machine types (from the installed cloud plugins), SSH machines, or this machine's lab. */
export function SitesStep({ sites, setSites, onNext, onBack }: { sites: WizardSite[]; setSites: Dispatch<SetStateAction<WizardSite[]>>; onNext(): void; onBack(): void }) {
  const catalog = useCall('catalog', {}, 'catalog');
  // Functional: several rows may fill themselves from their catalogs in the same render.
  const update = (i: number, site: WizardSite) => setSites((current) => current.map((s, j) => (j === i ? site : s)));
  const sshIncomplete = sites.some((s) => s.kind === 'ssh' && s.address.trim() === '');
  const cloudIncomplete = sites.some((s) => s.kind === 'cloud' && (s.zone === '' || s.machineType === ''));

  return (
    <fieldset className="panel">
      <legend>Where? (at least two places; every pair is measured)</legend>
      <Loaded state={catalog} what="cloud plugins">{(cat) => (
        <>
          {sites.map((site, i) => {
            return (
              <div key={i} className="site-row" data-testid="site-row">
                <label>Place {i + 1}{' '}
                  <select value={site.kind === 'cloud' ? `cloud:${site.cloud}` : site.kind} onChange={(e) => {
                    const v = e.target.value;
                    if (v === 'local') update(i, { kind: 'local' });
                    else if (v === 'ssh') update(i, { kind: 'ssh', address: '' });
                    // Zone and machine type are filled from the cloud's catalog once it has loaded.
                    else update(i, { kind: 'cloud', cloud: v.slice('cloud:'.length), zone: '', machineType: '' });
                  }}>
                    <option value="local">this machine (local lab)</option>
                    <option value="ssh">a machine I have (SSH)</option>
                    {cat.clouds.filter((c) => c.cloud !== 'local' && c.cloud !== 'static').map((c) => <option key={c.cloud} value={`cloud:${c.cloud}`}>{c.cloud} {c.version ? `(${c.version})` : ''}</option>)}
                  </select>
                </label>
                {site.kind === 'cloud' && <CloudSiteFields key={site.cloud} index={i} site={site} update={(next) => update(i, next)} />}
                {site.kind === 'ssh' && (
                  <>
                    <label>Address <input value={site.address} placeholder="host or IP" onChange={(e) => update(i, { ...site, address: e.target.value.trim() })} aria-invalid={site.address === ''} /></label>
                    <label>User <input value={site.user ?? ''} onChange={(e) => update(i, withOptional(site, 'user', e.target.value.trim()))} /></label>
                    <label>Key file <input value={site.key ?? ''} placeholder="~/.ssh/id_ed25519" onChange={(e) => update(i, withOptional(site, 'key', e.target.value.trim()))} /></label>
                  </>
                )}
                <button type="button" aria-label={`Remove place ${i + 1}`} disabled={sites.length <= 2} onClick={() => setSites(sites.filter((_, j) => j !== i))}>Remove</button>
              </div>
            );
          })}
          <div className="row"><button type="button" onClick={() => setSites([...sites, { kind: 'local' }])}>Add a place</button></div>
          {[...new Set(sites.flatMap((s) => (s.kind === 'cloud' ? [s.cloud] : [])))].map((cloud) => <CloudFieldList key={cloud} cloud={cloud} />)}
        </>
      )}</Loaded>
      {sshIncomplete && <p className="error-text">Give every SSH machine an address.</p>}
      {cloudIncomplete && <p className="error-text">Give every cloud machine a zone and a machine type.</p>}
      <div className="row">
        <button type="button" onClick={onBack}>Back</button>
        <button type="button" className="primary" disabled={sshIncomplete || cloudIncomplete || sites.length < 2} onClick={onNext}>Next: tests</button>
      </div>
    </fieldset>
  );
}

function withOptional(site: Extract<WizardSite, { kind: 'ssh' }>, key: 'user' | 'key', value: string): WizardSite {
  const { [key]: _drop, ...rest } = site;
  return value === '' ? rest : { ...rest, [key]: value };
}

/** The plugin's other host fields, loaded when its cloud is picked (importing a cloud SDK takes a while). */
function CloudFieldList({ cloud }: { cloud: string }) {
  const fields = useCall('cloudFields', { cloud }, cloud);
  return (
    <details className="small"><summary>More {cloud} host fields (set them in the YAML on the review step)</summary>
      <Loaded state={fields} what={`${cloud} fields`}>{(list) => <ul className="plain">{list.map((f) => <li key={f.name}><code>{f.name}</code> {f.description}</li>)}</ul>}</Loaded>
    </details>
  );
}
