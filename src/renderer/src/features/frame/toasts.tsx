/** The live region where finished actions and failures are announced. */
import { useEffect } from 'react';
import { useAppStore } from '../../store';
import type { Toast } from '../../store/toasts.slice';

/** How long a success or note stays; failures stay until dismissed. */
const FADE_MS = 5000;

/**
 * One toast with its own timer: a shared timer restarted on every change kept a stack of
 * "queued" notes on screen while new ones kept coming, over the failure a technician needed to read.
 */
function ToastItem({ toast, dismiss }: { toast: Toast; dismiss(id: number): void }) {
  useEffect(() => {
    if (toast.tone === 'bad') return;
    const timer = setTimeout(() => dismiss(toast.id), FADE_MS);
    return () => clearTimeout(timer);
  }, [toast.id, toast.tone, dismiss]);
  return (
    <div className={`toast toast-${toast.tone}`} role={toast.tone === 'bad' ? 'alert' : 'status'}>
      <div className="toast-text">
        <span>{toast.message}</span>
        {toast.remedy && <span className="notice-remedy">{toast.remedy}</span>}
      </div>
      <button type="button" className="btn btn-small" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** Shows recent toasts; successes fade after a few seconds, failures stay until dismissed. */
export function Toasts() {
  const toasts = useAppStore((s) => s.toasts);
  const dismiss = useAppStore((s) => s.dismissToast);
  return (
    <div className="toasts" aria-live="polite" data-testid="toasts">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} dismiss={dismiss} />
      ))}
    </div>
  );
}
