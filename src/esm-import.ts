/**
 * Loads an ES module from CommonJS: TypeScript would turn a plain `import()` into `require()`, which ES-only packages
 * (pdf.js, node-llama-cpp) refuse.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to keep a real dynamic import in CommonJS
export const importModule = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;
