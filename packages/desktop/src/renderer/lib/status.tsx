import type { ReactNode } from 'react';
import type { CallState } from './use-call';

/** Loading, error or content: every page goes through this, so none is ever blank. */
export function Loaded<T>({ state, children, what }: { state: CallState<T>; what: string; children: (data: T) => ReactNode }) {
  if (state.error) {
    return (
      <div className="panel panel-error" role="alert">
        <strong>Could not load {what}:</strong> {state.error.message}{' '}
        <button type="button" onClick={state.reload}>
          Retry
        </button>
      </div>
    );
  }
  if (state.data === undefined)
    return (
      <p className="muted" role="status">
        Loading {what}…
      </p>
    );
  return <>{children(state.data)}</>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}
