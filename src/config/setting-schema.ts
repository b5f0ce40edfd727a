import { z } from 'zod';

/**
 * One setting, declared once: the variable that sets it, its type and bounds, its default and a one-line
 * description. The parser, `citegraph help` and the environment table of docs/operations.md are all made from these.
 */
interface Common {
  /** Environment variables that set it; the first one set wins (e.g. a per-provider address, then a shared one). */
  readonly env: readonly string[];
  readonly description: string;
  /** Never printed (passwords, keys). */
  readonly secret?: boolean;
}

export interface IntegerSetting extends Common {
  readonly kind: 'integer';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

export interface NumberSetting extends Common {
  readonly kind: 'number';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

export interface BooleanSetting extends Common {
  readonly kind: 'boolean';
  readonly default: boolean | ((env: Env) => boolean);
  /** How the default reads in the docs, when it is computed. */
  readonly shownDefault?: string;
}

export interface StringSetting extends Common {
  readonly kind: 'string';
  readonly default: string | ((env: Env) => string);
  readonly shownDefault?: string;
  /** A path, resolved against CITEGRAPH_HOME. */
  readonly path?: boolean;
}

export interface OptionalStringSetting extends Common {
  readonly kind: 'optional-string';
}

export interface ChoiceSetting<T extends string = string> extends Common {
  readonly kind: 'choice';
  readonly values: readonly T[];
  readonly default: T;
}

export type Setting =
  IntegerSetting | NumberSetting | BooleanSetting | StringSetting | OptionalStringSetting | ChoiceSetting;

export type Env = Readonly<Record<string, string | undefined>>;

/** The value type a setting parses to. */
export type ValueOf<S> = S extends IntegerSetting | NumberSetting
  ? number
  : S extends BooleanSetting
    ? boolean
    : S extends StringSetting
      ? string
      : S extends OptionalStringSetting
        ? string | undefined
        : S extends ChoiceSetting<infer T>
          ? T
          : never;

/** A tree of settings (sections of settings) and the tree of values it parses to. */
export interface SettingTree {
  readonly [key: string]: Setting | SettingTree;
}
export type ValuesOf<T extends SettingTree> = {
  readonly [K in keyof T]: T[K] extends Setting ? ValueOf<T[K]> : T[K] extends SettingTree ? ValuesOf<T[K]> : never;
};

const vars = (env: string | readonly string[]): readonly string[] => (typeof env === 'string' ? [env] : env);

export const integer = (
  env: string | readonly string[],
  d: number,
  min: number,
  max: number,
  description: string,
): IntegerSetting => ({
  kind: 'integer',
  env: vars(env),
  default: d,
  min,
  max,
  description,
});

export const number = (
  env: string | readonly string[],
  d: number,
  min: number,
  max: number,
  description: string,
): NumberSetting => ({
  kind: 'number',
  env: vars(env),
  default: d,
  min,
  max,
  description,
});

export const boolean = (
  env: string | readonly string[],
  d: BooleanSetting['default'],
  description: string,
  shownDefault?: string,
): BooleanSetting => ({
  kind: 'boolean',
  env: vars(env),
  default: d,
  description,
  ...(shownDefault ? { shownDefault } : {}),
});

export const string = (
  env: string | readonly string[],
  d: StringSetting['default'],
  description: string,
  extra: { shownDefault?: string; path?: boolean; secret?: boolean } = {},
): StringSetting => ({ kind: 'string', env: vars(env), default: d, description, ...extra });

export const optionalString = (
  env: string | readonly string[],
  description: string,
  extra: { secret?: boolean } = {},
): OptionalStringSetting => ({ kind: 'optional-string', env: vars(env), description, ...extra });

export const choice = <const T extends string>(
  env: string | readonly string[],
  d: T,
  values: readonly T[],
  description: string,
): ChoiceSetting<T> => ({
  kind: 'choice',
  env: vars(env),
  default: d,
  values,
  description,
});

export function isSetting(value: Setting | SettingTree): value is Setting {
  return typeof (value as Setting).kind === 'string' && Array.isArray((value as Setting).env);
}

const BOOLEAN_TRUE = /^(1|true|yes|on)$/i;
const BOOLEAN_FALSE = /^(0|false|no|off)$/i;

/** The zod schema that checks one value of a setting (from the environment, or given per request). */
export function schemaOf(setting: Setting): z.ZodType {
  switch (setting.kind) {
    case 'integer':
      return z.coerce.number().int().min(setting.min).max(setting.max);
    case 'number':
      return z.coerce.number().finite().min(setting.min).max(setting.max);
    case 'boolean':
      return z.union([
        z.boolean(),
        z
          .string()
          .regex(new RegExp(`${BOOLEAN_TRUE.source}|${BOOLEAN_FALSE.source}`, 'i'))
          .transform((raw) => BOOLEAN_TRUE.test(raw)),
      ]);
    case 'string':
    case 'optional-string':
      return z.string().min(1);
    case 'choice':
      return z.enum(setting.values as [string, ...string[]]);
  }
}

/** What a value must be, in words: for error messages and the docs. */
export function expectation(setting: Setting): string {
  switch (setting.kind) {
    case 'integer':
      return `an integer in [${setting.min}, ${setting.max}]`;
    case 'number':
      return `a number in [${setting.min}, ${setting.max}]`;
    case 'boolean':
      return 'true or false';
    case 'choice':
      return `one of ${setting.values.join(', ')}`;
    case 'string':
      return setting.path ? 'a path (relative to CITEGRAPH_HOME)' : 'text';
    case 'optional-string':
      return 'text';
  }
}

/** The default as the docs show it. */
export function shownDefault(setting: Setting): string {
  switch (setting.kind) {
    case 'optional-string':
      return 'unset';
    case 'string':
    case 'boolean':
      return setting.shownDefault ?? String(setting.default);
    default:
      return String(setting.default);
  }
}

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** Reads one setting from the environment: the first variable set, else the default. Throws SettingsError. */
export function readSetting(setting: Setting, env: Env): unknown {
  const name = setting.env.find((variable) => env[variable] !== undefined && env[variable] !== '');
  if (name === undefined) {
    if (setting.kind === 'optional-string') return undefined;
    return typeof setting.default === 'function' ? setting.default(env) : setting.default;
  }
  const raw = env[name]!;
  const parsed = schemaOf(setting).safeParse(raw);
  if (!parsed.success) throw new SettingsError(`${name}=${setting.secret ? '…' : raw} must be ${expectation(setting)}`);
  return parsed.data;
}
