/** Asks before a navigation would lose unsaved work (the leave guard of nav.slice). */
import { useAppStore } from '../../store';
import { ConfirmDialog } from '../../ui/confirm-dialog';

/** Renders the question while a navigation waits for it. */
export function LeaveDialog() {
  const pending = useAppStore((s) => s.pendingLeave);
  const what = useAppStore((s) => s.leaveGuard);
  const answer = useAppStore((s) => s.answerLeave);
  return (
    <ConfirmDialog
      open={pending !== null}
      title="Leave without saving?"
      cancelLabel="Stay here"
      confirmLabel="Leave"
      tone="danger"
      onConfirm={() => answer(true)}
      onCancel={() => answer(false)}
    >
      <span data-testid="leave-reason">This screen has {what ?? 'unsaved changes'}</span>
    </ConfirmDialog>
  );
}
