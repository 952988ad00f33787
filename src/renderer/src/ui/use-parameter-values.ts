/**
 * A parameters form's raw fields turned into the values to send, and the service's own verdict
 * on them (src/shared/pipelines/parameters.ts): the launch form and a watched folder's launch
 * settings both show parameters this way.
 */
import { useMemo } from 'react';
import { checkParameters, type PipelineParameter } from '../../../shared/pipelines/parameters';
import { toValue, type RawValue } from './parameter-field';

export function useParameterValues(params: PipelineParameter[], raw: Record<string, RawValue>) {
  const values = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const p of params) {
      const v = toValue(p, raw[p.name] ?? '');
      if (v !== undefined) out[p.name] = v;
    }
    return out;
  }, [params, raw]);
  const check = useMemo(() => checkParameters(params, values), [params, values]);
  return { values, check };
}
