/**
 * React state over the execution feed. A busy run pushes an update per log line (thousands a
 * second): updates and log lines are held until the next animation frame and applied as one
 * render, so the dashboard paints at most once per frame whatever the rate.
 */
import { useEffect, useRef, useState } from 'react';
import { followExecution, type FeedMode } from '../../service-client/execution-feed';
import { useServices } from '../../service-client/services-context';
import type { Execution } from '../../service-client/types';
import { LogIndex } from './log-index';

/** Follows execution `id` while mounted; `version` changes whenever `logs` grew. */
export function useExecutionFeed(id: number, generation = 0) {
  const { client } = useServices();
  const [execution, setExecution] = useState<Execution | null>(null);
  const [mode, setMode] = useState<FeedMode>('connecting');
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const logs = useRef(new LogIndex());

  useEffect(() => {
    const index = new LogIndex();
    logs.current = index;
    setVersion(0);
    let frame = 0;
    let latest: Execution | null = null;
    let grew = false;
    const flush = () => {
      frame = 0;
      if (latest) {
        setExecution(latest);
        setError(null);
        latest = null;
      }
      if (grew) {
        grew = false;
        setVersion((v) => v + 1);
      }
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(flush);
    };
    const stop = followExecution(client, id, {
      execution: (e) => {
        latest = e;
        schedule();
      },
      logs: (lines) => {
        index.append(lines);
        grew = true;
        schedule();
      },
      mode: setMode,
      error: setError,
    });
    return () => {
      stop();
      if (frame) cancelAnimationFrame(frame);
    };
    // A new generation (after a resume) follows the same execution again from its snapshot.
  }, [client, id, generation]);

  return { execution, mode, error, logs: logs.current, version };
}
