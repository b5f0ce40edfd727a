import { environmentTable, loadSettings, settingEntries, SettingsError, settingsHash } from '../../src/config/settings';
import { documentedTable } from '../../scripts/tools/settings-table';

describe('settings', () => {
  it('has defaults for every field and freezes them', () => {
    const settings = loadSettings({});
    expect(settings.neo4j.uri).toBeUndefined();
    expect(settings.retrieval).toMatchObject({ denseWeight: 0.5, sparseWeight: 0.5, rrfK: 10 });
    expect(settings.chunking).toEqual({ maxTokens: 200, overlapTokens: 30 });
    expect(Object.isFrozen(settings.neo4j)).toBe(true);
  });

  it('reads NEO4J_URI and friends', () => {
    const settings = loadSettings({
      NEO4J_URI: 'bolt://db:7687',
      NEO4J_USER: 'u',
      NEO4J_PASSWORD: 'p',
      NEO4J_DATABASE: 'lit',
    });
    expect(settings.neo4j).toMatchObject({ uri: 'bolt://db:7687', user: 'u', password: 'p', database: 'lit' });
  });

  it('rejects values out of bounds with the variable named', () => {
    expect(() => loadSettings({ CITEGRAPH_NEO4J_PORT: '80' })).toThrow(/CITEGRAPH_NEO4J_PORT=80/);
    expect(() => loadSettings({ CITEGRAPH_CHUNK_MAX_TOKENS: 'lots' })).toThrow(SettingsError);
    expect(() => loadSettings({ CITEGRAPH_CHUNK_MAX_TOKENS: '40', CITEGRAPH_CHUNK_OVERLAP_TOKENS: '40' })).toThrow(
      /below/,
    );
    expect(() => loadSettings({ CITEGRAPH_CHUNK_AGGREGATION: 'mean' })).toThrow(/max, sum/);
  });

  it('hashes settings stably, without the password', () => {
    expect(settingsHash(loadSettings({}))).toBe(settingsHash(loadSettings({})));
    expect(settingsHash(loadSettings({ NEO4J_PASSWORD: 'a' }))).toBe(
      settingsHash(loadSettings({ NEO4J_PASSWORD: 'b' })),
    );
    expect(settingsHash(loadSettings({ CITEGRAPH_RRF_K: '60' }))).not.toBe(settingsHash(loadSettings({})));
  });
});

describe('the settings schema', () => {
  it('is what the environment table of docs/operations.md shows', () => {
    const table = documentedTable();
    expect(table).not.toBeNull();
    expect(table).toBe(environmentTable());
  });

  it('gives every variable one setting', () => {
    const variables = settingEntries().flatMap(({ setting }) => setting.env);
    const shared = ['CITEGRAPH_MAILTO']; // the polite-pool address both OpenAlex and Crossref fall back to
    expect(variables.filter((v, i) => variables.indexOf(v) !== i && !shared.includes(v))).toEqual([]);
    for (const { setting } of settingEntries()) expect(setting.description.length).toBeGreaterThan(5);
  });

  it('holds every search default, so that the settings hash covers them', () => {
    const settings = loadSettings({ CITEGRAPH_SEARCH_MMR: 'true', CITEGRAPH_SEARCH_MMR_K: '25' });
    expect(settings.retrieval).toMatchObject({ mmr: true, mmrK: 25, citation: true, passages: 2 });
    expect(settingsHash(settings)).not.toBe(settingsHash(loadSettings({})));
    expect(() => loadSettings({ CITEGRAPH_SEARCH_MMR_LAMBDA: '2' })).toThrow(
      'CITEGRAPH_SEARCH_MMR_LAMBDA=2 must be a number in [0, 1]',
    );
  });

  it('keeps secrets out of error messages and the hash', () => {
    expect(() => loadSettings({ CITEGRAPH_BAND_MODERATE: '90' })).toThrow(
      /CITEGRAPH_BAND_MODERATE \(90\) must be below/,
    );
    expect(settingsHash(loadSettings({ OPENAI_API_KEY: 'sk-one' }))).toBe(
      settingsHash(loadSettings({ OPENAI_API_KEY: 'sk-two' })),
    );
  });

  it('resolves paths against CITEGRAPH_HOME and derives the model folder from the cache folder', () => {
    const settings = loadSettings({ CITEGRAPH_HOME: '/srv/citegraph', CITEGRAPH_CACHE_DIR: 'cache' });
    expect(settings.cacheDir).toBe('/srv/citegraph/cache');
    expect(settings.model.dir).toBe('/srv/citegraph/cache/model');
    expect(settings.neo4j.embeddedDataDir).toBe('/srv/citegraph/.data/neo4j');
  });
});
