import { describe, expect, it } from 'vitest';
import { checkResources, parseMemoryGb, parseTimeLimit } from '../../../src/service/engines/run-resources';

describe('run resources', () => {
  it('reads memory sizes and time limits as labs write them', () => {
    expect(parseMemoryGb('8G')).toBe(8);
    expect(parseMemoryGb('512M')).toBe(0.5);
    expect(parseMemoryGb('1.5GB')).toBe(1.5);
    expect(parseMemoryGb(2)).toBe(2);
    expect(parseMemoryGb('lots')).toBeNull();
    expect(parseMemoryGb('0G')).toBeNull();
    expect(parseTimeLimit(90)).toBe(90);
    expect(parseTimeLimit('90m')).toBe(5400);
    expect(parseTimeLimit('2h')).toBe(7200);
    expect(parseTimeLimit('01:30:00')).toBe(5400);
    expect(parseTimeLimit('1-00:00:00')).toBe(86400);
    expect(parseTimeLimit('05:00')).toBe(300);
    expect(parseTimeLimit('soon')).toBeNull();
    expect(parseTimeLimit(-1)).toBeNull();
  });

  it('bounds local runs by this machine and lets cluster runs ask for more', () => {
    const capacity = { cpus: 2, memoryGb: 16 };
    expect(checkResources({ cpus: 4, memory: '64G' }, { cpus: 1 }, capacity, true).fields).toEqual({
      'resources.cpus': 'this machine has 2 CPUs',
      'resources.memory': 'this machine has 16 GB',
    });
    expect(checkResources({ cpus: 4, memory: '64G', queue: 'long' }, { cpus: 1 }, capacity, false).resources).toEqual({
      cpus: 4,
      memoryGb: 64,
      queue: 'long',
      timeLimitSeconds: null,
      local: false,
    });
    expect(checkResources(undefined, { cpus: 8 }, capacity, true).resources).toMatchObject({ cpus: 2, local: true });
    expect(checkResources({ cpus: 0 }, { cpus: 1 }, capacity, true).fields).toEqual({
      'resources.cpus': 'a whole number >= 1',
    });
  });
});
