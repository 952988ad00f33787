import { describe, expect, it } from 'vitest';
import { createDispatcher, DesktopFailure, type Handlers } from '../../src/main/core/dispatcher';
import { createDesktopApi, DesktopError, type DesktopTransport } from '../../src/shared/desktop-api/client';
import { Type } from 'typebox';
import { loginParams, methods, type ServiceStatus } from '../../src/shared/desktop-api/contract';
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
});
