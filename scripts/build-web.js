#!/usr/bin/env node
// Builds the browser assets the service serves (web/*.js → web/build/): bundled with esbuild from npm packages, so
// that no page loads anything from a CDN. `npm run build` and the setup run it; it skips work when the bundle is newer
// than its sources and the lockfile.
const { existsSync, mkdirSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SOURCES = path.join(ROOT, 'web');
const OUT = path.join(SOURCES, 'build');
const ENTRIES = ['explorer.js', 'app.js'];

function newest(files) {
  return Math.max(...files.filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs));
}

function upToDate() {
  const outputs = ENTRIES.map((entry) => path.join(OUT, entry));
  if (!outputs.every((file) => existsSync(file))) return false;
  const inputs = [
    ...readdirSync(SOURCES, { recursive: true })
      .map(String)
      .filter((f) => !f.startsWith(`build${path.sep}`) && (f.endsWith('.js') || f.endsWith('.css')))
      .map((f) => path.join(SOURCES, f)),
    path.join(ROOT, 'package-lock.json'),
    __filename,
  ];
  return Math.min(...outputs.map((f) => statSync(f).mtimeMs)) > newest(inputs);
}

async function buildWeb({ force = false } = {}) {
  if (!force && upToDate()) return false;
  const esbuild = require('esbuild');
  mkdirSync(OUT, { recursive: true });
  await esbuild.build({
    entryPoints: ENTRIES.map((entry) => path.join(SOURCES, entry)),
    outdir: OUT,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.woff2': 'dataurl', '.woff': 'dataurl', '.svg': 'dataurl' },
    legalComments: 'linked',
    logLevel: 'warning',
  });
  return true;
}

module.exports = { buildWeb };

if (require.main === module) {
  buildWeb({ force: process.argv.includes('--force') })
    .then((built) => process.stdout.write(built ? `web assets built in ${OUT}\n` : 'web assets up to date\n'))
    .catch((error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(1);
    });
}
