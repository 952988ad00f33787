/**
 * Lanes of test/helpers/design-lane-generator.ts posted through the REST lane upload
 * (POST /api/upload/multiplexed), each test as a technician of its own (technician-suite.ts).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  designSheetCsv,
  generateDesignLane,
  type DesignLane,
  type DesignLaneSpec,
} from '../../helpers/design-lane-generator';
import { technicianSuite, type TechnicianSuite } from './technician-suite';

export interface DesignLaneUploads extends TechnicianSuite {
  /** Generates a lane in a folder of its own and posts it with its sheet and every read file written. */
  post(
    spec: Omit<DesignLaneSpec, 'dir'>,
    fields?: Record<string, string>,
  ): Promise<{ gen: DesignLane; laneDir: string; res: Response }>;
}

/** Registers the suite's hooks (call it inside `describe`) and returns what its tests use. */
export function designLaneUploads(): DesignLaneUploads {
  const suite = technicianSuite();
  let lanes = 0;
  const post: DesignLaneUploads['post'] = async (spec, fields = {}) => {
    const laneDir = join(suite.dir, `lane${++lanes}`);
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
    const res = await suite.service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: suite.auth(),
      body: form,
    });
    return { gen, laneDir, res };
  };
  return {
    get service() {
      return suite.service;
    },
    dir: suite.dir,
    token: suite.token,
    auth: suite.auth,
    get: suite.get,
    nextTechnician: suite.nextTechnician,
    post,
  };
}
