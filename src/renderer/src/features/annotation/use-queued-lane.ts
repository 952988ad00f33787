/**
 * Follows a lane queued from the Lane screen: its files' bytes while they go up through the
 * upload queue, then the lane the core created from them (or the service's refusal, with the
 * warnings it named).
 */
import { useEffect, useState } from 'react';
import type { DesktopApi } from '../../../../shared/desktop-api/client';
import { laneGroupProgress, type GroupProgress } from './lane-queue';

export type QueuedState =
  | { phase: 'uploading'; progress: GroupProgress | null }
  | { phase: 'created'; laneId: number }
  | { phase: 'refused'; reason: string; warnings: boolean };

/** The queued lane's state; `groupId` null when nothing is queued. */
export function useQueuedLane(api: DesktopApi, groupId: number | null): QueuedState | null {
  const [state, setState] = useState<QueuedState | null>(null);
  useEffect(() => {
    if (groupId === null) {
      setState(null);
      return;
    }
    setState({ phase: 'uploading', progress: null });
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      const p = await laneGroupProgress(api, groupId).catch(() => null);
      if (stopped) return;
      const g = p?.group;
      if (g?.state === 'created' && g.created_id !== null) return setState({ phase: 'created', laneId: g.created_id });
      if (g && (g.state === 'failed' || g.state === 'cancelled')) {
        const reason = g.error ?? `The lane was ${g.state}`;
        return setState({ phase: 'refused', reason, warnings: /ignore_warnings/.test(reason) });
      }
      // A file the service refused (a sheet refused before its reads, say) ends the lane too.
      if (p?.failed)
        return setState({ phase: 'refused', reason: p.failed, warnings: /ignore_warnings/.test(p.failed) });
      setState({ phase: 'uploading', progress: p });
      timer = setTimeout(() => void look(), 1000);
    };
    void look();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, groupId]);
  return state;
}
