/** The GET descriptor a concrete path names (the core's `service:read`), grouped descriptors included. */
import { describe, expect, it } from 'vitest';
import { matchGet } from '../../../src/shared/service-api/endpoint-match';
import { getLanesById, sharing } from '../../../src/shared/service-api/endpoints';

describe('matchGet', () => {
  it('finds a top-level GET with its parameters and query', () => {
    const m = matchGet('/api/lanes/12?x=a+b');
    expect(m?.endpoint).toBe(getLanesById);
    expect(m?.params).toEqual({ id: '12' });
    expect(m?.query).toEqual({ x: 'a b' });
  });

  it('finds a GET grouped in an object (who may see a sample)', () => {
    const m = matchGet('/api/samples/7/permissions/');
    expect(m?.endpoint).toBe(sharing.samples.permissions);
    expect(m?.params).toEqual({ id: '7' });
  });

  it('answers null for a path no GET descriptor has', () => {
    expect(matchGet('/api/no-such-thing')).toBeNull();
    // A POST's path is not a read.
    expect(matchGet('/api/samples/7/share/')).toBeNull();
  });
});
