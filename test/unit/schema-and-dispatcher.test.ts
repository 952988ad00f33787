import { describe, expect, it } from 'vitest';
import { createDispatcher, DesktopFailure, type Handlers } from '../../src/main/core/dispatcher';
import { createDesktopApi, DesktopError, type DesktopTransport } from '../../src/shared/desktop-api/client';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import {
  events,
  loginParams,
  methods,
  type EventName,
  type ServiceStatus,
} from '../../src/shared/desktop-api/contract';
import { checkPayload, PayloadError } from '../../src/shared/desktop-api/payload-check';
import { closed } from '../../src/shared/desktop-api/payload-types';

const status = {
  mode: 'embedded' as const,
  state: 'running' as const,
  url: 'http://127.0.0.1:1',
  version: '0.1.0',
  error: null,
  since: new Date(0).toISOString(),
};

describe('desktop API payload schemas (TypeBox)', () => {
  const schema = closed({
    name: Type.String({ minLength: 1 }),
    n: Type.Optional(Type.Integer({ minimum: 0 })),
  });

  it('accepts closed objects and refuses unknown keys, wrong types and bounds', () => {
    expect(checkPayload(schema, { name: 'a' })).toEqual({ name: 'a' });
    expect(() => checkPayload(schema, { name: 'a', extra: 1 })).toThrow(PayloadError);
    expect(() => checkPayload(schema, { name: '' })).toThrow(/\/name/);
    expect(() => checkPayload(schema, { name: 'a', n: 1.5 })).toThrow(/\/n: must be integer/);
    expect(() => checkPayload(schema, { name: 'a', n: Number.NaN })).toThrow(PayloadError);
    expect(() => checkPayload(schema, null)).toThrow(PayloadError);
    expect(() => checkPayload(Type.Array(Type.String(), { maxItems: 1 }), ['a', 'b'])).toThrow(PayloadError);
    expect(() => checkPayload(Type.Enum(['a', 'b']), 'c')).toThrow(/allowed values/);
  });

  it('refuses keys named like inherited properties (toString, constructor, __proto__)', () => {
    expect(() => checkPayload(schema, { name: 'a', toString: 'x' })).toThrow(PayloadError);
    expect(() => checkPayload(schema, { name: 'a', constructor: 1 })).toThrow(PayloadError);
    expect(() => checkPayload(schema, JSON.parse('{"name":"a","__proto__":{"n":1}}'))).toThrow(PayloadError);
    expect(() => checkPayload(methods['app:version'].params, { hasOwnProperty: 1 })).toThrow(PayloadError);
    expect(() => checkPayload(loginParams, { username: 'u', password: 'p', valueOf: 1 })).toThrow(PayloadError);
  });

  it('infers literal unions from the schemas', () => {
    const running: ServiceStatus['state'] = 'running';
    // @ts-expect-error: not one of the service states
    const weird: ServiceStatus['state'] = 'weird';
    expect([running, weird]).toEqual(['running', 'weird']);
  });
});

describe('dispatcher and client over an in-memory transport', () => {
  const handlers: Handlers = {
    'app:version': () => ({ version: '0.1.0', shell: 'browser', platform: 'linux' }),
    'service:status': () => {
      throw new DesktopFailure({ code: 'SERVICE_UNAVAILABLE', message: 'down', retryable: true });
    },
  };
  const dispatcher = createDispatcher(handlers);
  const transport: DesktopTransport = {
    invoke: (channel, params) => dispatcher.dispatch(channel, params),
    subscribe: (event, listener) => dispatcher.subscribe((e, p) => e === event && listener(p)),
  };
  const api = createDesktopApi(transport);

  it('exposes contract methods as domain.verb and returns values', async () => {
    expect(await api.app.version()).toEqual({ version: '0.1.0', shell: 'browser', platform: 'linux' });
  });

  it('turns handler failures into DesktopError with code and retryable', async () => {
    const err = await api.service.status().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DesktopError);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryable: true, message: 'down' });
  });

  it('refuses unknown channels and bad payloads as data', async () => {
    expect(await dispatcher.dispatch('nope:x', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    expect(await dispatcher.dispatch('app:version', { a: 1 })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect(await dispatcher.dispatch('app:version', 'str')).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    // An inherited name is an unknown key like any other (the hand-written checker let it by).
    expect(await dispatcher.dispatch('app:version', { toString: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
  });

  it('delivers events to subscribers and stops after unsubscribe', () => {
    const seen: string[] = [];
    const off = api.on('service:status-changed', (p) => seen.push(p.state));
    dispatcher.emit('service:status-changed', status);
    off();
    dispatcher.emit('service:status-changed', { ...status, state: 'stopped' });
    expect(seen).toEqual(['running']);
  });

  it('refuses to emit an event payload that breaks the contract', () => {
    expect(() => dispatcher.emit('service:status-changed', { ...status, state: 'weird' as 'running' })).toThrow(
      PayloadError,
    );
  });

  // The dispatcher checks events with TypeBox's compiled check (made once per event, for speed);
  // it must pass and refuse exactly what the generic check does, for every event of the contract.
  it('checks every event of the contract as the generic check does', () => {
    const emitted = (event: EventName, payload: unknown) => {
      try {
        dispatcher.emit(event, payload as never);
        return true;
      } catch (err) {
        expect(err).toBeInstanceOf(PayloadError);
        return false;
      }
    };
    let refused = 0;
    for (const event of Object.keys(events) as EventName[]) {
      const valid = Value.Create(events[event]) as unknown;
      const variants: unknown[] = [valid, null, 'x', 7, []];
      if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
        const fields = Object.keys(valid);
        variants.push({ ...valid, unknown_key: 1 }, { ...valid, ['__proto__']: 1 });
        for (const f of fields) {
          const { [f]: _dropped, ...without } = valid as Record<string, unknown>;
          variants.push(without, { ...valid, [f]: null }, { ...valid, [f]: 'x' }, { ...valid, [f]: -1.5 });
        }
      }
      for (const v of variants) {
        const expected = Value.Check(events[event], v);
        expect(emitted(event, v), `${event} ${JSON.stringify(v)}`).toBe(expected);
        if (!expected) refused++;
      }
      // Twice: the second time from the check made the first time.
      expect(emitted(event, valid)).toBe(true);
    }
    expect(refused).toBeGreaterThan(50);
  });
});
