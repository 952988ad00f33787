import { describe, expect, it } from 'vitest';
import {
  invitationNotice,
  invitationStateText,
} from '../../../src/renderer/src/features/notifications/invitation-notice';

// The notice as the service's outbox keeps it (src/service/groups/invitations.commands.ts).
const notice = {
  kind: 'group_invitation',
  data: {
    group: 'miseq-bench',
    group_name: 'MiSeq bench',
    permission: 'edit',
    invited_by: 'tech',
    invited_by_name: 'Tess Technician',
  },
};
const me = (over: { invited?: boolean; role?: string } = {}) => ({
  invitations: over.invited
    ? [{ group: 'miseq-bench', group_name: 'MiSeq bench', invited_by: 'tech', permission: 'edit' }]
    : [],
  groups: over.role ? [{ slug: 'miseq-bench', name: 'MiSeq bench', role: over.role, permission: 'edit' }] : [],
});

describe('a group invitation in the app', () => {
  it('is said in the app’s words, from its data, not the e-mail’s', () => {
    const n = invitationNotice(notice, me({ invited: true }))!;
    expect(n.text).toBe('Tess Technician (tech) invited you to join the group "MiSeq bench" with edit permission.');
    expect(n.text).not.toMatch(/Open Laneway/);
    expect(n.state).toBe('open');
    expect(invitationStateText(n)).toBeNull();
  });

  it('says where it stands once answered: a member, or no longer open', () => {
    const member = invitationNotice(notice, me({ role: 'member' }))!;
    expect(member.state).toBe('member');
    expect(invitationStateText(member)).toBe('You are a member of MiSeq bench.');
    const closed = invitationNotice(notice, me())!;
    expect(closed.state).toBe('closed');
    expect(invitationStateText(closed)).toMatch(/no longer open/);
  });

  it('claims nothing before GET /api/me answers', () => {
    const n = invitationNotice(notice, undefined)!;
    expect(n.state).toBe('unknown');
    expect(invitationStateText(n)).toBeNull();
  });

  it('leaves other notices, and invitations without their facts, to their body', () => {
    expect(invitationNotice({ kind: 'execution_finished', data: { group: 'x' } }, me())).toBeNull();
    expect(invitationNotice({ kind: 'group_invitation', data: {} }, me())).toBeNull();
    const bare = invitationNotice({ kind: 'group_invitation', data: { group: 'miseq-bench' } }, me({ invited: true }))!;
    expect(bare.text).toBeNull();
    // A notice from before the inviter's name was kept names them by username.
    const older = invitationNotice({ kind: 'group_invitation', data: { group: 'g', invited_by: 'tech' } }, me())!;
    expect(older.text).toBe('tech invited you to join the group "g".');
    expect(bare.groupName).toBe('miseq-bench');
  });
});
