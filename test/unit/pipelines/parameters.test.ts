import { describe, expect, it } from 'vitest';
import { checkParameters, checkParameterValue, type PipelineParameter } from '../../../src/shared/pipelines/parameters';

const p = (over: Partial<PipelineParameter> & Pick<PipelineParameter, 'name' | 'type'>): PipelineParameter => ({
  description: '',
  required: false,
  ...over,
});

describe('pipeline parameter rules (shared by the service and the launch form)', () => {
  it('checks each type', () => {
    const cases: Array<[PipelineParameter, unknown, string | null]> = [
      [p({ name: 's', type: 'string' }), 'text', null],
      [p({ name: 's', type: 'string' }), 5, 'must be text'],
      [p({ name: 's', type: 'string', validation: '[a-z]+' }), 'abc', null],
      [p({ name: 's', type: 'string', validation: '[a-z]+' }), 'abc1', 'must match [a-z]+'],
      [p({ name: 's', type: 'string', min: 2, max: 3 }), 'a', 'must be at least 2 characters'],
      [p({ name: 'i', type: 'integer' }), 3, null],
      [p({ name: 'i', type: 'integer' }), 3.5, 'must be a whole number'],
      [p({ name: 'i', type: 'integer' }), '3', 'must be a whole number'],
      [p({ name: 'i', type: 'integer', min: 1, max: 5 }), 0, 'value must be at least 1'],
      [p({ name: 'i', type: 'integer', min: 1, max: 5 }), 6, 'value must be at most 5'],
      [p({ name: 'f', type: 'float', max: 1 }), 0.5, null],
      [p({ name: 'f', type: 'float', max: 1 }), 1.5, 'value must be at most 1'],
      [p({ name: 'f', type: 'float' }), Number.NaN, 'must be a number'],
      [p({ name: 'b', type: 'boolean' }), false, null],
      [p({ name: 'b', type: 'boolean' }), 'true', 'must be true or false'],
      [p({ name: 'c', type: 'choice', choices: ['a', 'b'] }), 'b', null],
      [p({ name: 'c', type: 'choice', choices: ['a', 'b'] }), 'z', 'must be one of: a, b'],
      [p({ name: 'file', type: 'file' }), 12, null],
      [p({ name: 'file', type: 'file' }), '/etc/passwd', 'must be a data record id'],
      [p({ name: 'a', type: 'array' }), ['x', 'y'], null],
      [p({ name: 'a', type: 'array' }), 'x', 'must be a list'],
      [p({ name: 'a', type: 'array', max: 1 }), ['x', 'y'], 'number of items must be at most 1'],
      [p({ name: 'a', type: 'array', items: 'integer' }), [1, 2.5], 'item 2 must be a whole number'],
      [
        p({ name: 'a', type: 'array', validation: '[A-Z]+=[ACGT]+' }),
        ['SA=ACGT', 'bad'],
        'item 2 must match [A-Z]+=[ACGT]+',
      ],
    ];
    for (const [param, value, expected] of cases) {
      expect(checkParameterValue(param, value), `${param.type} ${JSON.stringify(value)}`).toBe(expected);
    }
  });

  it('reports missing required parameters apart from invalid ones, and fills defaults', () => {
    const declared = [
      p({ name: 'steps', type: 'integer', required: true }),
      p({ name: 'label', type: 'string', required: true }),
      p({ name: 'mode', type: 'choice', choices: ['a', 'b'], default: 'a' }),
      p({ name: 'ratio', type: 'float', required: true, default: 0.5 }),
      p({ name: 'tags', type: 'array' }),
    ];
    const r = checkParameters(declared, { label: '', tags: 'x', extra: 1 });
    expect(r.missing).toEqual(['steps', 'label']);
    expect(r.invalid).toEqual({ tags: 'must be a list', extra: 'is not a parameter of this pipeline version' });
    expect(r.values).toEqual({ mode: 'a', ratio: 0.5 });
    const ok = checkParameters(declared, { steps: 2, label: 'x', mode: 'b' });
    expect(ok).toEqual({ missing: [], invalid: {}, values: { steps: 2, label: 'x', mode: 'b', ratio: 0.5 } });
  });
});
