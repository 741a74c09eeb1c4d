import type { RunShow } from '@netbench/results';

type Host = RunShow['run']['hosts'][number];

/** `rate 200mbit · delay 10ms` from a host's `link_*` labels (the local lab's tc shaping of its egress). */
export function shapingText(host: Host): string | undefined {
  const parts = Object.entries(host.labels ?? {})
    .filter(([k]) => k.startsWith('link_'))
    .map(([k, v]) => `${k.slice('link_'.length)} ${v}`);
  return parts.length > 0 ? `${parts.join(' · ')} (egress)` : undefined;
}

/**
 * Who measured what: every host with its cloud, zone, machine type,
 * addresses and shaping, and whether the run was measured by netbench or
 * imported from files measured elsewhere (then the hosts are what the files
 * said, often nothing).
 */
export function RunHeader({ run }: { run: RunShow['run'] }) {
  const imported = run.labels['imported'] === true || run.labels['imported'] === 'true';
  return (
    <div className="run-header" data-testid="run-header">
      <p className="small">
        {imported ? (
          <span className="badge badge-warn" data-testid="run-imported">
            imported
          </span>
        ) : (
          <span className="badge" data-testid="run-measured">
            measured by netbench {run.netbenchVersion}
          </span>
        )}
        {imported && <span className="muted"> — from files measured elsewhere: hosts, shaping and CPU placement are only what the files say.</span>}
      </p>
      {run.hosts.length > 0 && (
        <table className="data-table compact" data-testid="run-hosts">
          <caption className="sr-only">Hosts</caption>
          <thead>
            <tr>
              <th scope="col">host</th>
              <th scope="col">cloud</th>
              <th scope="col">zone</th>
              <th scope="col">machine</th>
              <th scope="col">address</th>
              <th scope="col">shaping</th>
            </tr>
          </thead>
          <tbody>
            {run.hosts.map((h) => (
              <tr key={h.id}>
                <td>{h.name}</td>
                <td>{h.cloud}</td>
                <td>{h.zone ?? h.region ?? '—'}</td>
                <td>{h.machineType ?? '—'}</td>
                <td>
                  <code>{h.internalIp}</code>
                  {h.externalIp && h.externalIp !== h.internalIp ? (
                    <>
                      {' '}
                      · external <code>{h.externalIp}</code>
                    </>
                  ) : null}
                </td>
                <td>{shapingText(h) ?? <span className="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
