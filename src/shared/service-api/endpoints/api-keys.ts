/** The endpoints of service/identity/api-keys.routes.ts. */
import { op } from '../endpoint';
import { ApiKey, ApiKeyPage, ApiKeysQuery, NewApiKeyBody } from '../api-keys';
import { IdParams } from '../resource';

export const postApiKeys = op({
  method: 'POST',
  path: '/api/api-keys',
  operationId: 'postApiKeys',
  summary: 'Create an API key (201; the key is in this answer only, shown once)',
  description:
    'The key (`lwk_` and 43 characters) is accepted wherever an access token is: ' +
    '`Authorization: Bearer <key>`, GraphQL connectionParams.authorization, LANEWAY_TOKEN. ' +
    'It carries your rights as they are at each use. Creating a key needs a password sign-in (an access token).',
  tags: ['api-keys'],
  body: NewApiKeyBody,
  response: { 201: ApiKey },
});

export const getApiKeys = op({
  method: 'GET',
  path: '/api/api-keys',
  operationId: 'getApiKeys',
  summary: "Your API keys, newest first (admin: all=true for everyone's, user=<username> for one user's)",
  tags: ['api-keys'],
  query: ApiKeysQuery,
  response: { 200: ApiKeyPage },
});

export const getApiKeysById = op({
  method: 'GET',
  path: '/api/api-keys/:id',
  operationId: 'getApiKeysById',
  summary: 'One API key (yours; admin: anyone’s)',
  tags: ['api-keys'],
  params: IdParams,
  response: { 200: ApiKey },
});

export const deleteApiKeysById = op({
  method: 'DELETE',
  path: '/api/api-keys/:id',
  operationId: 'deleteApiKeysById',
  summary: 'Revoke an API key at once (yours; admin: anyone’s); answers the revoked key',
  tags: ['api-keys'],
  params: IdParams,
  response: { 200: ApiKey },
});
