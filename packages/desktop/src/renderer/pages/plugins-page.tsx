import { Loaded } from '../lib/status';
import { useCall } from '../lib/use-call';

/** Installed plugins, their kinds, versions and where they come from (as `netbench plugins list`). */
export function PluginsPage() {
  const list = useCall('listPlugins', {}, 'plugins');
  const info = useCall('appInfo', {}, 'info');
  return (
    <section aria-labelledby="plugins-title" data-testid="plugins-page">
      <h1 id="plugins-title">Plugins</h1>
      <Loaded state={list} what="plugins">
        {({ plugins, problems }) => (
          <>
            <table className="data-table" data-testid="plugins-table">
              <thead>
                <tr>
                  <th scope="col">kind</th>
                  <th scope="col">name</th>
                  <th scope="col">version</th>
                  <th scope="col">package</th>
                  <th scope="col">source</th>
                </tr>
              </thead>
              <tbody>
                {plugins.map((p) => (
                  <tr key={`${p.kind}/${p.name}`}>
                    <td>{p.kind}</td>
                    <td>{p.name}</td>
                    <td>{p.version}</td>
                    <td>
                      <code>{p.packageName}</code>
                    </td>
                    <td>{p.source}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {problems.length > 0 && (
              <>
                <h2>Could not be used</h2>
                <ul>
                  {problems.map((p, i) => (
                    <li key={i} className="error-text">
                      {JSON.stringify(p)}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <p className="muted small">
              Add plugins with <code>netbench plugins add NAME</code>.
            </p>
          </>
        )}
      </Loaded>
      {info.data && (
        <p className="muted small">
          netbench {info.data.version} · {info.data.shell} · store <code>{info.data.storePath}</code> · runs <code>{info.data.runsDir}</code>
        </p>
      )}
    </section>
  );
}
