/** The endpoints of service/identity/auth.routes.ts. */
import { op } from '../endpoint';
import { LoginBody, LoginResponse, Me, NewUserBody, PasswordChangeBody, TokenResponse, User } from '../identity';

export const postSetup = op({
  method: 'POST',
  path: '/api/setup',
  operationId: 'postSetup',
  summary: 'Create the first account (an admin who may run pipelines); 409 once any account exists',
  tags: ['auth'],
  security: [],
  body: NewUserBody,
  response: { 201: User },
});

export const postLogin = op({
  method: 'POST',
  path: '/api/login',
  operationId: 'postLogin',
  summary: 'Log in: sets the service_refresh_token cookie and answers an access token',
  tags: ['auth'],
  security: [],
  body: LoginBody,
  response: { 200: LoginResponse },
});

export const getToken = op({
  method: 'GET',
  path: '/api/token',
  operationId: 'getToken',
  summary: 'A new access token for the refresh cookie',
  tags: ['auth'],
  response: { 200: TokenResponse },
});

export const postLogout = op({
  method: 'POST',
  path: '/api/logout',
  operationId: 'postLogout',
  summary: 'Revoke the refresh token in the cookie and clear the cookie',
  tags: ['auth'],
  security: [],
});

export const getMe = op({
  method: 'GET',
  path: '/api/me',
  operationId: 'getMe',
  summary: 'The current user, their groups and open invitations',
  tags: ['auth'],
  response: { 200: Me },
});

export const putMePassword = op({
  method: 'PUT',
  path: '/api/me/password',
  operationId: 'putMePassword',
  summary: "Change the caller's password; revokes all of their refresh tokens",
  tags: ['auth'],
  body: PasswordChangeBody,
  response: { 200: User },
});
