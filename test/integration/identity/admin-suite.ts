/**
 * The set-up most service tests share: a real service for the describe block (its beforeAll and
 * afterAll) with its first account, an admin, signed in.
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin, type Session } from './helpers';

export interface AdminSuite {
  /** The service (from the block's beforeAll on). */
  readonly service: TestService;
  /** Its first account, signed in. */
  readonly admin: Session;
}

/** Registers the block's beforeAll and afterAll; `username` names the admin. */
export function adminSuite(username = 'admin', hookTimeoutMs?: number): AdminSuite {
  let service: TestService | undefined;
  let admin: Session | undefined;
  beforeAll(async () => {
    service = await startTestService();
    admin = await setupAdmin(service, username);
  }, hookTimeoutMs);
  afterAll(async () => {
    await service?.stop();
  });
  return {
    get service() {
      if (!service) throw new Error('the service starts in beforeAll');
      return service;
    },
    get admin() {
      if (!admin) throw new Error('the admin is made in beforeAll');
      return admin;
    },
  };
}
