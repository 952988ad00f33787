/** The endpoints of service/groups/groups.routes.ts. */
import { op } from '../endpoint';
import {
  GroupChangesBody,
  GroupDeleted,
  GroupDetail,
  GroupPage,
  GroupSlugParams,
  InviteBody,
  InviteResponse,
  LeftGroup,
  MemberPermissionBody,
  NewGroupBody,
  RemoveMemberBody,
  UsernameBody,
} from '../groups';
import { PageQuery } from '../page';

export const getGroups = op({
  method: 'GET',
  path: '/api/groups/',
  operationId: 'getGroups',
  summary: "The caller's groups (member or admin; open invitations are in /api/me)",
  tags: ['groups'],
  query: PageQuery,
  response: { 200: GroupPage },
});

export const postGroups = op({
  method: 'POST',
  path: '/api/groups/',
  operationId: 'postGroups',
  summary: 'Create a group; the slug is generated from the name and the caller becomes its admin',
  tags: ['groups'],
  body: NewGroupBody,
  response: { 201: GroupDetail },
});

export const getGroupsBySlug = op({
  method: 'GET',
  path: '/api/groups/:slug/',
  operationId: 'getGroupsBySlug',
  summary: 'Group details (members, admins and invitees see it; others get 404)',
  tags: ['groups'],
  params: GroupSlugParams,
  response: { 200: GroupDetail },
});

export const putGroupsBySlug = op({
  method: 'PUT',
  path: '/api/groups/:slug/',
  operationId: 'putGroupsBySlug',
  summary: 'Update the name or description (admin); the slug stays',
  tags: ['groups'],
  params: GroupSlugParams,
  body: GroupChangesBody,
  response: { 200: GroupDetail },
});

export const deleteGroupsBySlug = op({
  method: 'DELETE',
  path: '/api/groups/:slug/',
  operationId: 'deleteGroupsBySlug',
  summary: 'Delete the group (admin): its shares go, the resources it owns pass to the deleting admin',
  tags: ['groups'],
  params: GroupSlugParams,
  response: { 200: GroupDeleted },
});

export const postGroupsBySlugInvite = op({
  method: 'POST',
  path: '/api/groups/:slug/invite/',
  operationId: 'postGroupsBySlugInvite',
  summary: 'Invite people by e-mail address at an initial permission (admin); each invitee is notified',
  tags: ['groups'],
  params: GroupSlugParams,
  body: InviteBody,
  response: { 200: InviteResponse },
});

export const postGroupsBySlugAccept = op({
  method: 'POST',
  path: '/api/groups/:slug/accept/',
  operationId: 'postGroupsBySlugAccept',
  summary: 'Accept your invitation: you become a member',
  tags: ['groups'],
  params: GroupSlugParams,
  response: { 200: GroupDetail },
});

export const postGroupsBySlugRemove = op({
  method: 'POST',
  path: '/api/groups/:slug/remove/',
  operationId: 'postGroupsBySlugRemove',
  summary: 'Remove a member or an invitation by username, or a pending invitation by e-mail (admin)',
  tags: ['groups'],
  params: GroupSlugParams,
  body: RemoveMemberBody,
  response: { 200: GroupDetail },
});

export const postGroupsBySlugPermission = op({
  method: 'POST',
  path: '/api/groups/:slug/permission/',
  operationId: 'postGroupsBySlugPermission',
  summary: "Change a member's permission in the group (admin)",
  tags: ['groups'],
  params: GroupSlugParams,
  body: MemberPermissionBody,
  response: { 200: GroupDetail },
});

const leaving = { tags: ['groups'], params: GroupSlugParams, response: { 200: LeftGroup } } as const;

export const postGroupsBySlugDecline = op({
  method: 'POST',
  path: '/api/groups/:slug/decline/',
  operationId: 'postGroupsBySlugDecline',
  summary: 'Decline your invitation',
  ...leaving,
});

export const postGroupsBySlugLeave = op({
  method: 'POST',
  path: '/api/groups/:slug/leave/',
  operationId: 'postGroupsBySlugLeave',
  summary: 'Leave the group (the last admin is refused with LAST_ADMIN)',
  ...leaving,
});

const adminAction = {
  tags: ['groups'],
  params: GroupSlugParams,
  body: UsernameBody,
  response: { 200: GroupDetail },
} as const;

export const postGroupsBySlugPromote = op({
  method: 'POST',
  path: '/api/groups/:slug/promote/',
  operationId: 'postGroupsBySlugPromote',
  summary: 'Promote a member to admin (admin)',
  ...adminAction,
});

export const postGroupsBySlugDemote = op({
  method: 'POST',
  path: '/api/groups/:slug/demote/',
  operationId: 'postGroupsBySlugDemote',
  summary: 'Demote an admin to member (admin; never the last admin)',
  ...adminAction,
});
