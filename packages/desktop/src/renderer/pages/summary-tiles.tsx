import type { SummaryTile } from '@netbench/report/summary-tiles';
import { StatusBadge } from '../lib/status';

/** The run's headline numbers per configuration (summaryTiles), before its table and charts. */
export function SummaryTiles({ tiles }: { tiles: readonly SummaryTile[] }) {
  return (
    <ul className="tiles" data-testid="summary-tiles" aria-label="Headline per configuration">
      {tiles.map((tile) => (
        <li key={tile.trialIds.join(',')} className="tile" data-testid="summary-tile">
          <h3>{tile.title}</h3>
          <p className="muted small">
            {tile.subtitle}
            {tile.status !== 'succeeded' && (
              <>
                {' '}
                · <StatusBadge status={tile.status} />
              </>
            )}
          </p>
          {tile.stats.length > 0 && (
            <dl>
              {tile.stats.map((s, i) => (
                <Stat key={s.label} label={s.label} value={s.value} headline={i === 0} />
              ))}
            </dl>
          )}
        </li>
      ))}
    </ul>
  );
}

function Stat({ label, value, headline }: { label: string; value: string; headline: boolean }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={headline ? 'headline' : undefined}>{value}</dd>
    </>
  );
}
