import { Component, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { type ConnectionState, connectionState, onConnectionState } from './lib/bridge-client';
import { href, useRoute } from './lib/route';
import { useTheme } from './lib/theme';
import { PluginsPage } from './pages/plugins-page';
import { ResultsPage } from './pages/results-page';
import { WizardPage } from './wizard/wizard-page';

// Pages with charts load ECharts on first use: the results list paints without it.
const ComparePage = lazy(() => import('./pages/compare-page').then((m) => ({ default: m.ComparePage })));
const OverlayPage = lazy(() => import('./pages/overlay-page').then((m) => ({ default: m.OverlayPage })));
const LiveRunPage = lazy(() => import('./pages/live-run-page').then((m) => ({ default: m.LiveRunPage })));
const RunPage = lazy(() => import('./pages/run-page').then((m) => ({ default: m.RunPage })));
const TrendPage = lazy(() => import('./pages/trend-page').then((m) => ({ default: m.TrendPage })));

const NAV = [
  { path: 'new', label: 'New comparison' },
  { path: 'results', label: 'Results' },
  { path: 'trend', label: 'Trend' },
  { path: 'plugins', label: 'Plugins' },
];

export function App() {
  const route = useRoute();
  const { dark, toggle } = useTheme();
  const [connection, setConnection] = useState<ConnectionState>(connectionState);
  useEffect(() => onConnectionState(setConnection), []);
  const section = route[0] ?? 'results';

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">netbench</span>
        <nav aria-label="Main">
          {NAV.map((n) => (
            <a
              key={n.path}
              href={href(n.path)}
              aria-current={section === n.path || (n.path === 'results' && (section === 'run' || section === 'compare' || section === 'overlay')) ? 'page' : undefined}
            >
              {n.label}
            </a>
          ))}
        </nav>
        <button type="button" className="theme-toggle" onClick={toggle} aria-label={`Switch to ${dark ? 'light' : 'dark'} theme`}>
          {dark ? '☀ Light' : '☾ Dark'}
        </button>
      </header>
      {connection === 'lost' && (
        <div className="banner banner-error" role="alert" data-testid="connection-lost">
          Lost the connection to netbench. Runs already started keep running in the netbench process; this page reconnects by itself — or reload it, or restart{' '}
          <code>netbench ui</code>.
        </div>
      )}
      <main id="main" tabIndex={-1}>
        <ErrorBoundary key={route.join('/')}>
          <Suspense
            fallback={
              <p className="muted" role="status">
                Loading…
              </p>
            }
          >
            <Page route={route} />
          </Suspense>
        </ErrorBoundary>
      </main>
    </>
  );
}

function Page({ route }: { route: string[] }) {
  const [section, a] = route;
  switch (section ?? 'results') {
    case 'new':
      return <WizardPage />;
    case 'live':
      return a ? <LiveRunPage runId={a} /> : <NotFound />;
    case 'results':
      return <ResultsPage />;
    case 'run':
      return a ? <RunPage runId={a} /> : <NotFound />;
    case 'compare':
      return <ComparePage args={route.slice(1)} />;
    case 'overlay':
      return route.length >= 3 ? <OverlayPage runIds={route.slice(1)} /> : <NotFound />;
    // `#/trend/METRIC/SPLIT/WHERE`: `-` for no split.
    case 'trend':
      return <TrendPage {...(a ? { metric: a } : {})} {...(route[2] && route[2] !== '-' ? { splitBy: route[2] } : {})} {...(route[3] ? { where: route[3] } : {})} />;
    case 'plugins':
      return <PluginsPage />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        This page does not exist. <a href={href('results')}>Go to results</a>.
      </p>
    </section>
  );
}

/** A render error shows what broke and a way back, never a blank page. */
class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section role="alert" className="panel panel-error">
        <h1>This page failed to draw</h1>
        <pre>{this.state.error.message}</pre>
        <p>
          <a href={href('results')}>Back to results</a>
        </p>
      </section>
    );
  }
}
