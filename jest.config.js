/** Three layers, one project each: unit (pure code), integration (real Neo4j), e2e (GraphQL over HTTP). */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };
const common = {
  testEnvironment: '<rootDir>/test/helpers/node-environment.js',
  transform,
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Setup's downloads (.cache holds the local generator's own node_modules) are not part of the project.
  modulePathIgnorePatterns: ['<rootDir>/.cache/'],
  // A test that writes to the console fails: code under test reports through the logger it is given.
  setupFilesAfterEnv: ['<rootDir>/test/helpers/fail-on-console.ts'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/helpers/neo4j-global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/neo4j-global-teardown.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/helpers/neo4j-global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/neo4j-global-teardown.ts',
    },
  ],
  testTimeout: 600000,
};
