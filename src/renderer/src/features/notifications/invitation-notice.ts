/**
 * A group invitation as the app shows it. The service's outbox keeps the e-mail's words ("Open
 * Laneway to accept or decline"), which read wrong inside Laneway beside the buttons that answer
 * it, and wronger once it was answered: here it is said from the notice's data, with where the
 * invitation stands now (open, a member already, or no longer open).
 */
import type { Me } from '../../../../shared/service-api/identity';

/** `unknown` until GET /api/me has answered. */
export type InvitationState = 'open' | 'member' | 'closed' | 'unknown';

export interface InvitationNotice {
  slug: string;
  groupName: string;
  /** One sentence in the app's words, or null when the notice lacks the facts (then its body is shown). */
  text: string | null;
  state: InvitationState;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** The invitation a notice carries, with its state from GET /api/me; null for other notices. */
export function invitationNotice(
  n: { kind: string; data?: Record<string, unknown> | null },
  me: Pick<Me, 'groups' | 'invitations'> | undefined,
): InvitationNotice | null {
  const slug = text(n.data?.group);
  if (n.kind !== 'group_invitation' || !slug) return null;
  const groupName = text(n.data?.group_name) ?? slug;
  // As the e-mail names the inviter: "Tess Technician (tess)", or the username alone.
  const username = text(n.data?.invited_by);
  const name = text(n.data?.invited_by_name);
  const by = username && name && name !== username ? `${name} (${username})` : username;
  const permission = text(n.data?.permission);
  const state: InvitationState = !me
    ? 'unknown'
    : me.invitations.some((i) => i.group === slug)
      ? 'open'
      : me.groups.some((g) => g.slug === slug && g.role !== 'invited')
        ? 'member'
        : 'closed';
  return {
    slug,
    groupName,
    text: by
      ? `${by} invited you to join the group "${groupName}"${permission ? ` with ${permission} permission` : ''}.`
      : null,
    state,
  };
}

/** What the notice says under its sentence when there is nothing left to answer. */
export function invitationStateText(notice: InvitationNotice): string | null {
  if (notice.state === 'member') return `You are a member of ${notice.groupName}.`;
  if (notice.state === 'closed') return 'This invitation is no longer open: it was declined or withdrawn.';
  return null;
}
