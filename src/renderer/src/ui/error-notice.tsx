/** A failure as the technician sees it: the service's message, its code and what to do next. */
import { describeError, remedyFor } from '../service-client/service-error';

/** Shows an error in an alert region; renders nothing for a null error. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  const { message, code } = describeError(error);
  return (
    <div className="notice notice-bad" role="alert" data-testid="error-notice" data-code={code}>
      <strong>{message}</strong>
      <span className="notice-remedy">
        {remedyFor(code)} <span className="muted">({code})</span>
      </span>
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
