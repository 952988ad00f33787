/** React state over the execution feed, with log lines batched into one render per frame. */
import { useEffect, useRef, useState } from 'react';
import { followExecution, type FeedMode } from '../../service-client/execution-feed';
import { useServices } from '../../service-client/services-context';
import type { Execution, LogEntry } from '../../service-client/types';

/** Follows execution `id` while mounted. */
export function useExecutionFeed(id: number) {
  const { client } = useServices();
  const [execution, setExecution] = useState<Execution | null>(null);
  const [mode, setMode] = useState<FeedMode>('connecting');
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const logs = useRef<LogEntry[]>([]);

  useEffect(() => {
    logs.current = [];
    setVersion(0);
    let frame = 0;
    const stop = followExecution(client, id, {
      execution: (e) => {
        setExecution(e);
        setError(null);
      },
      logs: (lines) => {
        for (const l of lines) logs.current.push(l);
        // Many batches per frame become one render.
        if (!frame) frame = requestAnimationFrame(() => ((frame = 0), setVersion((v) => v + 1)));
      },
      mode: setMode,
      error: setError,
    });
    return () => {
      stop();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [client, id]);

  return { execution, mode, error, logs: logs.current, version };
}
