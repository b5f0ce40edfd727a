import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  type Env,
  expectation,
  isSetting,
  readSetting,
  type Setting,
  SettingsError,
  type SettingTree,
  shownDefault,
  type ValuesOf,
} from './setting-schema';

export { SettingsError } from './setting-schema';
import { ANSWER_SETTINGS } from './settings-answers';
import { GRAPH_SETTINGS } from './settings-graph';
import { SERVICE_SETTINGS } from './settings-service';

/**
 * The one settings object. The environment is parsed here, once, against one declarative schema; nothing else in the
 * code base reads process.env. Every setting has a variable, a type with bounds, a default and a one-line description;
 * `citegraph help` and the environment table of docs/operations.md are printed from the same schema.
 */

/** Where the project lives: settings paths default relative to it. */
export const PROJECT_ROOT = path.resolve(
  __dirname,
  '..',
  '..',
  __dirname.includes(`${path.sep}dist${path.sep}`) ? '..' : '',
);

/** Every setting, by section. */
export const SETTINGS_SCHEMA = {
  ...GRAPH_SETTINGS,
  ...SERVICE_SETTINGS,
  ...ANSWER_SETTINGS,
} as const satisfies SettingTree;

export type Settings = ValuesOf<typeof SETTINGS_SCHEMA>;
export type Neo4jSettings = Settings['neo4j'];
export type ModelSettings = Settings['model'];
export type ChunkingSettings = Settings['chunking'];
export type IngestSettings = Settings['ingest'];
export type DocumentSettings = Settings['documents'];
export type DocumentSetSettings = Settings['documentSets'];
export type RetrievalSettings = Settings['retrieval'];
export type ApiSettings = Settings['api'];
export type ClientSettings = Settings['clients'];
export type ProviderSettings = ClientSettings['openalex'];
export type GenerationSettings = Settings['generation'];
export type EvidenceSettings = Settings['evidence'];

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Every setting with the path it has in the settings object, in schema order. */
export function settingEntries(
  tree: SettingTree = SETTINGS_SCHEMA,
  prefix: string[] = [],
): Array<{ path: string[]; setting: Setting }> {
  return Object.entries(tree).flatMap(([key, value]) =>
    isSetting(value) ? [{ path: [...prefix, key], setting: value }] : settingEntries(value, [...prefix, key]),
  );
}

/** Parses settings from an environment (process.env by default); throws SettingsError on a bad value. */
export function loadSettings(env: Env = process.env): Settings {
  const home = path.resolve(PROJECT_ROOT, env.CITEGRAPH_HOME || '.');
  const parse = (tree: SettingTree): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(tree).map(([key, value]) => {
        if (!isSetting(value)) return [key, parse(value)];
        if (value === SETTINGS_SCHEMA.home) return [key, home];
        const parsed = readSetting(value, env);
        return [key, value.kind === 'string' && value.path ? path.resolve(home, parsed as string) : parsed];
      }),
    );
  const settings = parse(SETTINGS_SCHEMA) as unknown as Settings;
  if (settings.chunking.overlapTokens >= settings.chunking.maxTokens) {
    throw new SettingsError(
      `CITEGRAPH_CHUNK_OVERLAP_TOKENS (${settings.chunking.overlapTokens}) must be below CITEGRAPH_CHUNK_MAX_TOKENS (${settings.chunking.maxTokens})`,
    );
  }
  if (settings.evidence.moderateBand >= settings.evidence.strongBand) {
    throw new SettingsError(
      `CITEGRAPH_BAND_MODERATE (${settings.evidence.moderateBand}) must be below CITEGRAPH_BAND_STRONG (${settings.evidence.strongBand})`,
    );
  }
  return deepFreeze(settings);
}

/** A short, stable hash of the settings, stamped on answers so that results can be traced to a configuration. */
export function settingsHash(settings: Settings): string {
  const { password: _password, ...neo4j } = settings.neo4j;
  const { apiKey: _key, ...generation } = settings.generation;
  return createHash('sha256')
    .update(JSON.stringify({ ...settings, neo4j, generation }))
    .digest('hex')
    .slice(0, 12);
}

/** One line per variable, for `citegraph help`. */
export function environmentHelp(): string {
  return settingEntries()
    .filter(({ setting }) => setting.env.length > 0)
    .map(
      ({ setting }) =>
        `  ${setting.env.join(' | ').padEnd(44)} ${setting.description} (${shownDefault(setting)}; ${expectation(setting)})`,
    )
    .join('\n');
}

/** The environment table of docs/operations.md, made from the schema (a unit test keeps the page in step). */
export function environmentTable(): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const rows = settingEntries()
    .filter(({ setting }) => setting.env.length > 0)
    .map(
      ({ setting }) =>
        `| ${setting.env.map((v) => `\`${v}\``).join(', ')} | ${escape(expectation(setting))} | ${escape(shownDefault(setting))} | ${escape(setting.description)} |`,
    );
  return ['| variable | value | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}
