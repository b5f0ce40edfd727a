import { loadSettings, SettingsError, settingsHash } from '../../src/config/settings';

describe('settings', () => {
  it('has defaults for every field and freezes them', () => {
    const settings = loadSettings({});
    expect(settings.neo4j.uri).toBeUndefined();
    expect(settings.retrieval).toMatchObject({ denseWeight: 0.5, sparseWeight: 0.5, rrfK: 60 });
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
    expect(settingsHash(loadSettings({ CITEGRAPH_RRF_K: '10' }))).not.toBe(settingsHash(loadSettings({})));
  });
});
