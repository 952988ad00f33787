/** A small data-loading hook: runs a loader, keeps its result, error and a reload action. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isNetworkError } from '../../../shared/service-client/service-error';
import { useAppStore } from '../store';

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Loads on mount and whenever `key` changes; stale answers of earlier loads are dropped. */
export function useQuery<T>(load: () => Promise<T>, key: string): QueryState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const loader = useRef(load);
  loader.current = load;

  useEffect(() => {
    let live = true;
    setLoading(true);
    loader.current().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [key, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  // A load that could not reach the service runs again once the service answers again (a
  // restarted local service, the network back): the screen recovers without a reload.
  const epoch = useAppStore((s) => s.serviceEpoch);
  const failedForNetwork = isNetworkError(error);
  useEffect(() => {
    if (failedForNetwork) reload();
    // Only a new epoch re-runs this; a failure alone waits for the next one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [epoch]);
  return { data, error, loading, reload };
}
