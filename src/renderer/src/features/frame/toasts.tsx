/** The live region where finished actions and failures are announced. */
import { useEffect } from 'react';
import { useAppStore } from '../../store';

/** Shows recent toasts; successes fade after a few seconds, failures stay until dismissed. */
export function Toasts() {
  const toasts = useAppStore((s) => s.toasts);
  const dismiss = useAppStore((s) => s.dismissToast);
  useEffect(() => {
    const timers = toasts.filter((t) => t.tone !== 'bad').map((t) => setTimeout(() => dismiss(t.id), 5000));
    return () => timers.forEach(clearTimeout);
  }, [toasts, dismiss]);
  return (
    <div className="toasts" aria-live="polite" data-testid="toasts">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`} role={t.tone === 'bad' ? 'alert' : 'status'}>
          <span>{t.message}</span>
          {t.remedy && <span className="notice-remedy">{t.remedy}</span>}
          <button type="button" className="btn btn-small" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
