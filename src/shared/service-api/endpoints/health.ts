/** The endpoints of service/health/health.routes.ts. */
import { op } from '../endpoint';
import { HealthResponse } from '../health';

export const getHealth = op({
  method: 'GET',
  path: '/api/health',
  operationId: 'getHealth',
  summary: 'Service liveness and version',
  tags: ['meta'],
  security: [],
  response: { 200: HealthResponse },
});
