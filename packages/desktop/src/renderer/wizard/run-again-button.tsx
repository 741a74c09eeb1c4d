import { useState } from 'react';
import { call } from '../lib/bridge-client';
import { openInWizard } from './wizard-store';

/** A run page's "Run again / edit": the run's own spec text in the wizard's review (editor, plan, cost, Run). */
export function RunAgainButton({ runId }: { runId: string }) {
  const [error, setError] = useState<string | undefined>();
  const open = async () => {
    setError(undefined);
    try {
      const { text, name } = await call('runSpec', { runId });
      openInWizard(text, name);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void open()} data-testid="run-again">
        Run again / edit
      </button>
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
