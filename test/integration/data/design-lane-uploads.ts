/**
 * The suite set-up of tests that post generated lanes (test/helpers/design-lane-generator.ts)
 * through the REST lane upload (POST /api/upload/multiplexed): a service with an admin, and a new
 * technician for each test, because the generator names every lane's samples S01.. and a name
 * already on the service refuses a lane (issue 19 item 7), which these tests do not test.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  designSheetCsv,
  generateDesignLane,
  type DesignLane,
  type DesignLaneSpec,
} from '../../helpers/design-lane-generator';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, setupAdmin, type Session } from '../identity/helpers';

export interface DesignLaneUploads {
  /** The running service (from the suite's beforeAll on). */
  readonly service: TestService;
  /** A folder removed after the suite. */
  readonly dir: string;
  /** The bearer header of the current technician. */
  auth(): { authorization: string };
  /** GETs `path` as the current technician and returns its JSON body. */
  get<T>(path: string): Promise<T>;
  /** Makes a new technician the current one (a second lane of the same test with its own names). */
  nextTechnician(): Promise<void>;
  /** Generates a lane in a folder of its own and posts it with its sheet and every read file written. */
  post(
    spec: Omit<DesignLaneSpec, 'dir'>,
    fields?: Record<string, string>,
  ): Promise<{ gen: DesignLane; laneDir: string; res: Response }>;
}

/** Registers the suite's hooks (call it inside `describe`) and returns what its tests use. */
export function designLaneUploads(): DesignLaneUploads {
  const dir = tempDir();
  let service: TestService | undefined;
  let alice: Session;
  let current: Session;
  let technicians = 0;
  let lanes = 0;
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
    auth,
    get: async <T>(path: string) => (await (await running().api(path, { headers: auth() })).json()) as T,
    nextTechnician,
    post: async (spec, fields = {}) => {
      const laneDir = join(dir.path, `lane${++lanes}`);
      mkdirSync(laneDir);
      const gen = generateDesignLane({ ...spec, dir: laneDir });
      const form = new FormData();
      form.append('name', `lane ${lanes}`);
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('annotation', new Blob([designSheetCsv(gen)]), 'sheet.csv');
      const file = (path: string) => new Blob([new Uint8Array(readFileSync(path))]);
      form.append('file', file(gen.read1), 'lane_R1.fastq');
      if (gen.read2) form.append('file2', file(gen.read2), 'lane_R2.fastq');
      if (gen.index1) form.append('index1', file(gen.index1), 'lane_I1.fastq');
      if (gen.index2) form.append('index2', file(gen.index2), 'lane_I2.fastq');
      const res = await running().api('/api/upload/multiplexed', { method: 'POST', headers: auth(), body: form });
      return { gen, laneDir, res };
    },
  };
}
