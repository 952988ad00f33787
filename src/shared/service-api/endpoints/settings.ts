/** The endpoints of service/settings/settings.routes.ts. */
import { op } from '../endpoint';
import { Settings, SettingsPatch, StorageReport } from '../settings';

export const getAdminSettings = op({
  method: 'GET',
  path: '/api/admin/settings',
  operationId: 'getAdminSettings',
  summary: 'Quotas, upload expiry, invitation and webhook policy (service administrators only)',
  tags: ['admin'],
  response: { 200: Settings },
});

export const putAdminSettings = op({
  method: 'PUT',
  path: '/api/admin/settings',
  operationId: 'putAdminSettings',
  summary: 'Change some settings; the others keep their values (service administrators only)',
  tags: ['admin'],
  body: SettingsPatch,
  response: { 200: Settings },
});

export const getAdminStorage = op({
  method: 'GET',
  path: '/api/admin/storage',
  operationId: 'getAdminStorage',
  summary: "Free space on the data folder's disk and the users storing the most (service administrators only)",
  tags: ['admin'],
  response: { 200: StorageReport },
});
