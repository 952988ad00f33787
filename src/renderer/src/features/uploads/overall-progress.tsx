/**
 * The queue's overall line: acknowledged bytes of all files (queued ones included), and speed,
 * ETA and counts only while something moves; idle shows idle, paused shows paused. Speeds are
 * in Mbit/s when a limit was typed in Mbit/s.
 */
import type { OverallProgress, UploadSettings } from '../../../../shared/desktop-api/contract';
import { formatBytes, formatDuration, formatRate, plural } from '../../ui/format';
import { useLocalService, waitingText } from './waiting-reason';

/** Whether the technician set a limit, so rates read in the unit they typed. */
export function rateUnit(settings: UploadSettings | null): 'mbit' | 'bytes' {
  return settings && (settings.limit_mbps !== null || settings.schedule.length > 0) ? 'mbit' : 'bytes';
}

/** Renders the overall card. */
export function OverallProgressCard({
  overall,
  settings,
}: {
  overall: OverallProgress;
  settings: UploadSettings | null;
}) {
  const local = useLocalService();
  const moving = overall.jobs_active > 0;
  const unit = rateUnit(settings);
  const state = moving ? 'active' : overall.paused ? 'paused' : overall.jobs_queued > 0 ? 'waiting' : 'idle';
  const pct = overall.bytes_total ? (overall.bytes_sent / overall.bytes_total) * 100 : 0;
  return (
    <div className="card" data-testid="upload-overall" data-state={state}>
      <progress className="progress" max={100} value={pct} aria-label="Overall upload progress" />{' '}
      <span data-testid="overall-bytes">
        {formatBytes(overall.bytes_sent)} of {formatBytes(overall.bytes_total)} on the service
      </span>
      {' · '}
      <span data-testid="overall-state">
        {moving &&
          (overall.speed_bps > 0
            ? `${formatRate(overall.speed_bps, unit)} · ETA ${formatDuration(overall.eta_seconds)}`
            : 'measuring the speed…') + ` · ${overall.jobs_active} uploading`}
        {!moving && overall.paused && 'Paused'}
        {!moving && !overall.paused && overall.jobs_queued === 0 && 'Idle: nothing is uploading'}
        {!moving && !overall.paused && overall.jobs_queued > 0 && 'Waiting to start'}
      </span>
      {overall.jobs_queued > 0 && ` · ${overall.jobs_queued} queued`}
      {overall.jobs_failed > 0 && ` · ${plural(overall.jobs_failed, 'failed file', 'failed files')}`}
      {settings?.limit_mbps != null && (
        <span className="muted" data-testid="overall-limit">
          {' '}
          · limit {settings.limit_mbps} Mbit/s
        </span>
      )}
      {overall.waiting_reason && <p className="field-help">Waiting: {waitingText(overall.waiting_reason, local)}</p>}
    </div>
  );
}
