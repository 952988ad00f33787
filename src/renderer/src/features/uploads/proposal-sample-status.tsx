/**
 * Per proposed sample: whether it goes up (a checkbox to leave it out) and what the service
 * already holds for it. A sample whose reads are on the service as a sample is not uploaded or
 * created again, and says so; a name already used there is pointed out before anything is sent.
 */
import type { ProposedSample } from '../../../../shared/desktop-api/contract';
import './ingest.css';

/** True when the sample would be uploaded on Confirm. */
export function goesUp(s: ProposedSample): boolean {
  return !s.excluded && !(s.existing?.reads_on_service && s.existing.sample_id !== null);
}

/** Above the sample's name: upload it or leave it out, or "On the service". */
export function SampleInclude({ sample, onChange }: { sample: ProposedSample; onChange(excluded: boolean): void }) {
  const onService = !!(sample.existing?.reads_on_service && sample.existing.sample_id !== null);
  return (
    <div className="sample-include">
      {onService ? (
        <span className="badge badge-muted" data-testid="sample-on-service">
          On the service
        </span>
      ) : (
        <label className="inline-check">
          <input
            type="checkbox"
            checked={!sample.excluded}
            onChange={(e) => onChange(!e.target.checked)}
            aria-label={`Upload ${sample.name}`}
          />
          <span aria-hidden="true">{sample.excluded ? 'Left out' : 'Upload'}</span>
        </label>
      )}
    </div>
  );
}

/** The line under a row naming what the service already has, or null. */
export function ExistingNote({ sample, columns }: { sample: ProposedSample; columns: number }) {
  if (!sample.existing) return null;
  return (
    <tr className="proposal-existing" data-testid="sample-existing">
      <td colSpan={columns} className={sample.existing.reads_on_service ? 'muted' : 'field-message'}>
        {sample.name}: {sample.existing.message}
      </td>
    </tr>
  );
}
