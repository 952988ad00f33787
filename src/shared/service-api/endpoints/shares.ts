/**
 * The endpoints of service/shares/shares.routes.ts: share, unshare and permissions, the same
 * three for every owned resource kind under its URL segment.
 */
import { op } from '../endpoint';
import { IdParams } from '../resource';
import { ResourcePermissions, ShareBody, ShareParams } from '../shares';

function shareEndpoints<const S extends string>(segment: S, label: string) {
  const Segment = `${segment[0]!.toUpperCase()}${segment.slice(1)}`;
  const what = label.toLowerCase();
  const tags = ['sharing'];
  return {
    share: op({
      method: 'POST',
      path: `/api/${segment}/:id/share/`,
      operationId: `post${Segment}ByIdShare`,
      summary: `Share a ${what} with a group at view, edit or share (needs share permission)`,
      tags,
      params: IdParams,
      body: ShareBody,
      response: { 200: ResourcePermissions },
    }),
    unshare: op({
      method: 'DELETE',
      path: `/api/${segment}/:id/share/:slug/`,
      operationId: `delete${Segment}ByIdShareBySlug`,
      summary: `Stop sharing a ${what} with a group (needs share permission)`,
      tags,
      params: ShareParams,
      response: { 200: ResourcePermissions },
    }),
    permissions: op({
      method: 'GET',
      path: `/api/${segment}/:id/permissions/`,
      operationId: `get${Segment}ByIdPermissions`,
      summary: `Who has access to a ${what}: owner, shares and each user's effective permission`,
      tags,
      params: IdParams,
      response: { 200: ResourcePermissions },
    }),
  };
}

/** The sharing endpoints by URL segment. */
export const sharing = {
  projects: shareEndpoints('projects', 'Project'),
  samples: shareEndpoints('samples', 'Sample'),
  data: shareEndpoints('data', 'Data file'),
  executions: shareEndpoints('executions', 'Execution'),
} as const;

export type SharingSegment = keyof typeof sharing;
