/** Why an upload waits, in words a technician acts on. */
import type { WaitingReason } from '../../../../shared/desktop-api/contract';

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

/** The explanation of a waiting reason. */
export function waitingText(reason: WaitingReason | null): string | null {
  return reason ? TEXT[reason] : null;
}
