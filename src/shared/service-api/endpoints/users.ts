/** The endpoints of service/identity/users.routes.ts. */
import { op } from '../endpoint';
import { NewUserBody, User, UserChangesBody, UserPage } from '../identity';
import { PageQuery } from '../page';
import { IdParams } from '../resource';

export const postUsers = op({
  method: 'POST',
  path: '/api/users/',
  operationId: 'postUsers',
  summary: 'Create a user (admin)',
  tags: ['users'],
  body: NewUserBody,
  response: { 201: User },
});

export const getUsers = op({
  method: 'GET',
  path: '/api/users/',
  operationId: 'getUsers',
  summary: 'List users (admin)',
  tags: ['users'],
  query: PageQuery,
  response: { 200: UserPage },
});

export const getUsersById = op({
  method: 'GET',
  path: '/api/users/:id',
  operationId: 'getUsersById',
  summary: 'One user (admin)',
  tags: ['users'],
  params: IdParams,
  response: { 200: User },
});

export const putUsersById = op({
  method: 'PUT',
  path: '/api/users/:id',
  operationId: 'putUsersById',
  summary: 'Update a user (admin): disable, set can_run_pipelines or is_admin, reset the password',
  tags: ['users'],
  params: IdParams,
  body: UserChangesBody,
  response: { 200: User },
});
