/**
 * The suite set-up of lane tests: a service with an admin, and a new technician for each test,
 * because a lane's sample names must be new on the service (issue 19 item 7) and the generators
 * name every lane's samples alike (lane-reused-names.test.ts tests the refusal).
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, setupAdmin, type Session } from '../identity/helpers';

export interface TechnicianSuite {
  /** The running service (from the suite's beforeAll on). */
  readonly service: TestService;
  /** A folder removed after the suite. */
  readonly dir: string;
  /** The current technician's access token. */
  token(): string;
  /** The bearer header of the current technician. */
  auth(): { authorization: string };
  /** GETs `path` as the current technician and returns its JSON body. */
  get<T>(path: string): Promise<T>;
  /** Makes a new technician the current one (a second lane of the same test with its own names). */
  nextTechnician(): Promise<void>;
}

/** Registers the suite's hooks (call it inside `describe`) and returns what its tests use. */
export function technicianSuite(): TechnicianSuite {
  const dir = tempDir();
  let service: TestService | undefined;
  let alice: Session;
  let current: Session;
  let technicians = 0;
  beforeAll(async () => {
    service = await startTestService();
    alice = await setupAdmin(service, 'alice');
  });
  afterAll(async () => {
    await service?.stop();
    dir.remove();
  });
  const running = (): TestService => {
    if (!service) throw new Error('the service starts in beforeAll');
    return service;
  };
  const nextTechnician = async () => {
    current = await addUser(running(), alice, `tech${++technicians}`);
  };
  beforeEach(nextTechnician);
  const auth = () => ({ authorization: `Bearer ${current.token}` });
  return {
    get service() {
      return running();
    },
    dir: dir.path,
    token: () => current.token,
    auth,
    get: async <T>(path: string) => (await (await running().api(path, { headers: auth() })).json()) as T,
    nextTechnician,
  };
}
