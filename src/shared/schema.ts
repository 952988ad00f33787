/**
 * A tiny runtime schema library for the desktop API's payloads. Kept here (not zod) because
 * shared must stay dependency-free and every process imports it; it infers TypeScript types.
 */
export class SchemaError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
  ) {
    super(`${path || 'value'}: expected ${expected}`);
    this.name = 'SchemaError';
  }
}

export interface Schema<T> {
  readonly kind: string;
  parse(value: unknown, path?: string): T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

function make<T>(kind: string, parse: (value: unknown, path: string) => T): Schema<T> {
  return { kind, parse: (value, path = '') => parse(value, path) };
}

export const s = {
  string(opts: { min?: number; max?: number } = {}): Schema<string> {
    return make('string', (v, p) => {
      if (typeof v !== 'string') throw new SchemaError(p, 'a string');
      if (opts.min !== undefined && v.length < opts.min) throw new SchemaError(p, `at least ${opts.min} characters`);
      if (opts.max !== undefined && v.length > opts.max) throw new SchemaError(p, `at most ${opts.max} characters`);
      return v;
    });
  },
  number(opts: { int?: boolean; min?: number; max?: number } = {}): Schema<number> {
    return make('number', (v, p) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new SchemaError(p, 'a finite number');
      if (opts.int && !Number.isInteger(v)) throw new SchemaError(p, 'an integer');
      if (opts.min !== undefined && v < opts.min) throw new SchemaError(p, `>= ${opts.min}`);
      if (opts.max !== undefined && v > opts.max) throw new SchemaError(p, `<= ${opts.max}`);
      return v;
    });
  },
  boolean(): Schema<boolean> {
    return make('boolean', (v, p) => {
      if (typeof v !== 'boolean') throw new SchemaError(p, 'a boolean');
      return v;
    });
  },
  literal<L extends string | number | boolean | null>(lit: L): Schema<L> {
    return make('literal', (v, p) => {
      if (v !== lit) throw new SchemaError(p, JSON.stringify(lit));
      return lit;
    });
  },
  enum<const E extends readonly string[]>(values: E): Schema<E[number]> {
    return make('enum', (v, p) => {
      if (typeof v !== 'string' || !values.includes(v)) throw new SchemaError(p, `one of ${values.join(', ')}`);
      return v as E[number];
    });
  },
  unknown(): Schema<unknown> {
    return make('unknown', (v) => v);
  },
  nullable<T>(inner: Schema<T>): Schema<T | null> {
    return make('nullable', (v, p) => (v === null ? null : inner.parse(v, p)));
  },
  optional<T>(inner: Schema<T>): Schema<T | undefined> {
    return make('optional', (v, p) => (v === undefined ? undefined : inner.parse(v, p)));
  },
  array<T>(inner: Schema<T>, opts: { max?: number } = {}): Schema<T[]> {
    return make('array', (v, p) => {
      if (!Array.isArray(v)) throw new SchemaError(p, 'an array');
      if (opts.max !== undefined && v.length > opts.max) throw new SchemaError(p, `at most ${opts.max} items`);
      return v.map((item, i) => inner.parse(item, `${p}[${i}]`));
    });
  },
  record<T>(inner: Schema<T>): Schema<Record<string, T>> {
    return make('record', (v, p) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SchemaError(p, 'an object');
      const out: Record<string, T> = {};
      for (const [k, val] of Object.entries(v)) out[k] = inner.parse(val, p ? `${p}.${k}` : k);
      return out;
    });
  },
  /** A closed object: unknown keys are refused so that typos never pass silently. */
  object<Shape extends Record<string, Schema<unknown>>>(
    shape: Shape,
  ): Schema<
    { [K in keyof Shape as undefined extends Infer<Shape[K]> ? never : K]: Infer<Shape[K]> } & {
      [K in keyof Shape as undefined extends Infer<Shape[K]> ? K : never]?: Infer<Shape[K]>;
    }
  > {
    return make('object', (v, p) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SchemaError(p, 'an object');
      const input = v as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (!(key in shape)) throw new SchemaError(p ? `${p}.${key}` : key, 'no such field');
      }
      const out: Record<string, unknown> = {};
      for (const [key, schema] of Object.entries(shape)) {
        const parsed = schema.parse(input[key], p ? `${p}.${key}` : key);
        if (parsed !== undefined) out[key] = parsed;
      }
      return out as never;
    });
  },
};
