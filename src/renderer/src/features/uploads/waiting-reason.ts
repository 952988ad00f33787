/** Why an upload waits, in words a technician acts on. */
import type { WaitingReason } from '../../../../shared/desktop-api/contract';
import { useAppStore } from '../../store';

const TEXT: Record<WaitingReason, string> = {
  'file-growing': 'the file is still being written; it starts once its size settles',
  offline: 'this computer is offline; it resumes when the network returns',
  'token-refresh': 'renewing your sign-in',
  'not-signed-in': 'sign in to continue',
  'bandwidth-schedule': 'the bandwidth schedule holds uploads at this time',
  backoff: 'the last attempt failed; retrying shortly',
  'service-unavailable': 'the service is not answering; it resumes when it does',
  concurrency: 'other uploads go first',
};

/** The local service runs on this computer: its not answering is a restart, never the network. */
const LOCAL_TEXT: Partial<Record<WaitingReason, string>> = {
  offline: 'the local service is restarting; it resumes when it answers',
  'service-unavailable': 'the local service is restarting; it resumes when it answers',
};

/** The explanation of a waiting reason; `local` when the active service is the embedded one. */
export function waitingText(reason: WaitingReason | null, local = false): string | null {
  if (!reason) return null;
  return (local ? LOCAL_TEXT[reason] : undefined) ?? TEXT[reason];
}

/** Whether the active profile is this computer's embedded service. */
export function useLocalService(): boolean {
  return useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.active_id)?.kind === 'embedded');
}
