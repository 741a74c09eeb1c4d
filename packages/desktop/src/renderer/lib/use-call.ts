import { useCallback, useEffect, useState } from 'react';
import type { BridgeArg, BridgeMethod, BridgeResult } from '../../shared/bridge-types';
import { call } from './bridge-client';

export interface CallState<T> {
  readonly data?: T;
  readonly error?: Error;
  readonly loading: boolean;
  reload(): void;
}

/** Call a bridge method when `key` changes; the page shows loading, the data, or the error — never nothing. */
export function useCall<M extends BridgeMethod>(method: M, arg: BridgeArg<M>, key: string): CallState<BridgeResult<M>> {
  const [state, setState] = useState<{ data?: BridgeResult<M>; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    call(method, arg).then(
      (data) => { if (live) setState({ data, loading: false }); },
      (error: unknown) => { if (live) setState({ error: error as Error, loading: false }); },
    );
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the argument
  }, [method, key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
