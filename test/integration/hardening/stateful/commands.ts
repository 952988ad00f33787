/** The arbitraries of every command of the stateful suite, weighted towards what succeeds. */
import fc from 'fast-check';
import type { Command, Intent } from './command-kit';
import { List, Probe } from './look-commands';
import { CreateProject, CreateSample, Delete, Upload } from './resource-commands';
import { Accept, Invite, Leave, SetPermission, Share, Unshare } from './share-commands';
import { Lane, Run } from './work-commands';

/** Four in five commands pick among targets the model allows; the rest among any. */
const intent: fc.Arbitrary<Intent> = fc.record({
  valid: fc.nat(4).map((n) => n > 0),
  actor: fc.nat(3),
  target: fc.nat(1000),
});
const kind = fc.constantFrom('project', 'sample', 'data', 'execution') as fc.Arbitrary<
  'project' | 'sample' | 'data' | 'execution'
>;
const perm = fc.constantFrom('view', 'edit', 'share') as fc.Arbitrary<'view' | 'edit' | 'share'>;

const upload = fc
  .record({
    reads: fc.integer({ min: 2, max: 8 }),
    chunkBytes: fc.constantFrom(80, 128, 4096),
    order: fc.array(fc.nat(99), { minLength: 8, maxLength: 8 }),
    resend: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    checksumEarly: fc.boolean(),
    duplicate: fc.nat(6).map((n) => n === 0),
    resendLast: fc.boolean(),
  })
  .map((p) => p);

/** Weights: work is slow (a run, a lane), looks are cheap and check the most. */
export function commandArbitraries(): Array<fc.Arbitrary<Command>> {
  const w = <T extends Command>(n: number, a: fc.Arbitrary<T>) => Array<fc.Arbitrary<Command>>(n).fill(a);
  return [
    ...w(
      3,
      fc.tuple(intent, fc.boolean()).map(([i, g]) => new CreateProject(i, g)),
    ),
    ...w(
      4,
      fc.tuple(intent, upload).map(([i, p]) => new Upload(i, p)),
    ),
    ...w(
      4,
      fc
        .tuple(
          intent,
          fc.option(fc.nat(100), { nil: null }),
          fc.nat(4).map((n) => n === 0),
        )
        .map(([i, p, g]) => new CreateSample(i, p, g)),
    ),
    ...w(
      6,
      fc.tuple(intent, kind, fc.nat(9), perm, fc.boolean()).map(([i, k, g, p, d]) => new Share(i, k, g, p, d)),
    ),
    ...w(
      2,
      fc.tuple(intent, kind).map(([i, k]) => new Unshare(i, k)),
    ),
    ...w(
      2,
      fc.tuple(intent, fc.nat(3), perm).map(([i, v, p]) => new Invite(i, v, p)),
    ),
    ...w(
      2,
      intent.map((i) => new Accept(i)),
    ),
    ...w(
      1,
      intent.map((i) => new Leave(i)),
    ),
    ...w(
      1,
      fc.tuple(intent, fc.nat(3), perm).map(([i, v, p]) => new SetPermission(i, v, p)),
    ),
    ...w(
      1,
      fc
        .tuple(
          intent,
          fc.array(fc.nat(100), { minLength: 1, maxLength: 2 }),
          fc.nat(3),
          fc.nat(3).map((n) => n === 0),
        )
        .map(([i, s, o, g]) => new Run(i, s, o, g)),
    ),
    ...w(
      1,
      fc.tuple(intent, fc.integer({ min: 2, max: 3 })).map(([i, n]) => new Lane(i, n)),
    ),
    ...w(
      2,
      fc
        .tuple(intent, fc.constantFrom('project', 'sample', 'data') as fc.Arbitrary<'project' | 'sample' | 'data'>)
        .map(([i, k]) => new Delete(i, k)),
    ),
    ...w(
      3,
      fc
        .tuple(fc.nat(3), fc.constantFrom('project', 'sample', 'data', 'execution', 'lane', 'group', 'notification'))
        .map(([a, k]) => new List(a, k as 'project')),
    ),
    ...w(
      4,
      fc
        .tuple(
          fc.nat(3),
          kind,
          fc.nat(1000),
          fc.nat(3).map((n) => n > 0),
        )
        .map(([a, k, t, v]) => new Probe(a, k, t, v)),
    ),
  ];
}
