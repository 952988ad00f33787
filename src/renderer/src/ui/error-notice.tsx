/**
 * A failure as the technician sees it: the service's message, what to do next and the code.
 * A refusal that names fields lists each field's reason (the form also shows it on the field);
 * a bare "Invalid request" never stands alone.
 */
import { describeError, remedyFor } from '../service-client/service-error';
import { fieldErrorsOf } from './field-errors';

const label = (field: string) => field.replace(/\.\d+$/, '').replace(/[._]/g, ' ');

/**
 * Shows an error in an alert region; renders nothing for a null error. `remedies` replaces the
 * generic advice for a code where the screen knows better what a refusal means.
 */
export function ErrorNotice({
  error,
  onRetry,
  remedies,
}: {
  error: unknown;
  onRetry?: () => void;
  remedies?: Partial<Record<string, string>>;
}) {
  if (!error) return null;
  const { message, code } = describeError(error);
  const fields = Object.entries(fieldErrorsOf(error));
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
