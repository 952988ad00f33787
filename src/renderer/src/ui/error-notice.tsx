/**
 * A failure as the technician sees it: the service's message, what to do next and the code.
 * A refusal that names fields lists each field's reason (the form also shows it on the field);
 * a bare "Invalid request" never stands alone.
 */
import { ServiceError } from '../../../shared/service-client/service-error';
import { describeError, remedyFor } from '../service-client/service-error';
import { fieldErrorsOf } from './field-errors';

const label = (field: string) => field.replace(/\.\d+$/, '').replace(/[._]/g, ' ');

/** A sheet's problems listed in a notice; more are summed up. */
const SHEET_ISSUES_SHOWN = 10;

/**
 * Shows an error in an alert region; renders nothing for a null error. `remedies` replaces the
 * generic advice for a code where the screen knows better what a refusal means. `sheetRows`
 * lists a refused sheet's problems (INVALID_ANNOTATION's rows) where no grid marks them.
 */
export function ErrorNotice({
  error,
  onRetry,
  remedies,
  sheetRows = false,
}: {
  error: unknown;
  onRetry?: () => void;
  remedies?: Partial<Record<string, string>>;
  sheetRows?: boolean;
}) {
  if (!error) return null;
  const { message, code } = describeError(error);
  const fields = Object.entries(fieldErrorsOf(error));
  const rows = (sheetRows && error instanceof ServiceError && error.rows) || [];
  const title = fields.length && /^invalid request$/i.test(message) ? 'The service refused some fields' : message;
  const remedy =
    remedies?.[code] ??
    (code === 'VALIDATION_ERROR' && fields.length === 0
      ? 'Check what you entered and try again.'
      : code === 'VALIDATION_ERROR'
        ? 'Correct the fields marked on the form and try again.'
        : remedyFor(code));
  return (
    <div className="notice notice-bad" role="alert" data-testid="error-notice" data-code={code}>
      <strong>{title}</strong>
      {fields.length > 0 && (
        <ul className="notice-fields">
          {fields.map(([k, v]) => (
            <li key={k}>
              {label(k)}: {v}
            </li>
          ))}
        </ul>
      )}
      {rows.length > 0 && (
        <ul className="notice-fields" data-testid="sheet-issues">
          {rows.slice(0, SHEET_ISSUES_SHOWN).map((r, i) => (
            <li key={i}>
              {r.row > 0 ? `Row ${r.row}, ` : ''}
              {r.column}: {r.message}
            </li>
          ))}
          {rows.length > SHEET_ISSUES_SHOWN && <li>and {rows.length - SHEET_ISSUES_SHOWN} more</li>}
        </ul>
      )}
      {remedy !== title && (
        <span className="notice-remedy">
          {remedy} <span className="muted">({code})</span>
        </span>
      )}
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
