import { describe, expect, it } from 'vitest';
import { createDispatcher, DesktopFailure, type Handlers } from '../../src/main/core/dispatcher';
import { createDesktopApi, DesktopError, type DesktopTransport } from '../../src/shared/desktop-api/client';
import { s, SchemaError } from '../../src/shared/schema';

const status = {
  mode: 'embedded' as const,
  state: 'running' as const,
  url: 'http://127.0.0.1:1',
  version: '0.1.0',
  error: null,
  since: new Date(0).toISOString(),
};

describe('schema', () => {
  it('parses closed objects and refuses unknown keys, wrong types and bounds', () => {
    const schema = s.object({ name: s.string({ min: 1 }), n: s.optional(s.number({ int: true, min: 0 })) });
    expect(schema.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(() => schema.parse({ name: 'a', extra: 1 })).toThrow(SchemaError);
    expect(() => schema.parse({ name: '' })).toThrow(/at least 1/);
    expect(() => schema.parse({ name: 'a', n: 1.5 })).toThrow(/integer/);
    expect(() => schema.parse(null)).toThrow(/object/);
    expect(() => s.array(s.string(), { max: 1 }).parse(['a', 'b'])).toThrow(/at most 1/);
    expect(() => s.enum(['a', 'b'] as const).parse('c')).toThrow(/one of a, b/);
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
      SchemaError,
    );
  });
});
