#!/usr/bin/env node
'use strict';
/**
 * Fails when an import in src/ points up the layers. Arrows go one way:
 *
 *   cli → api → app-context → pipeline → analytics/catalog/retrieval/sets → external/generation → ingest
 *       → graph/embedding/documents → config/domain (domain.ts, text.ts, errors.ts, logger.ts, request-context.ts)
 *
 * A module may import from its own layer or any layer below it. Within one layer, folders must not import each other
 * in a cycle. Runs without a build: it reads the files with TypeScript's own pre-processor.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');

/** Layer of each top-level folder or file of src/, lowest first. */
const LAYERS = [
  ['config', 'domain.ts', 'text.ts', 'errors.ts', 'logger.ts', 'request-context.ts', 'paging.ts', 'esm-import.ts'],
  ['graph', 'embedding', 'documents'],
  ['ingest'],
  ['external', 'generation'],
  ['analytics', 'catalog', 'retrieval', 'sets'],
  ['pipeline'],
  ['app-context.ts'],
  ['api'],
  ['cli'],
];

const rankOf = new Map(LAYERS.flatMap((names, rank) => names.map((name) => [name, rank])));

/** The top-level unit of a file under src/: its folder, or the file itself when it sits in src/. */
function unitOf(file) {
  const relative = path.relative(SRC, file);
  const [first] = relative.split(path.sep);
  return first;
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function main() {
  const problems = [];
  const folderEdges = new Map();
  for (const file of sourceFiles(SRC)) {
    const unit = unitOf(file);
    const rank = rankOf.get(unit);
    if (rank === undefined) {
      problems.push(
        `${path.relative(ROOT, file)}: src/${unit} has no layer; add it to LAYERS in scripts/check-imports.js`,
      );
      continue;
    }
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      const target = resolveImport(file, imported.fileName);
      if (!target || !target.startsWith(SRC)) continue;
      const targetUnit = unitOf(target);
      const targetRank = rankOf.get(targetUnit);
      if (targetRank === undefined || targetUnit === unit) continue;
      if (targetRank > rank) {
        problems.push(
          `${path.relative(ROOT, file)} imports ${path.relative(ROOT, target)}: ${unit} (layer ${rank}) must not depend on ${targetUnit} (layer ${targetRank})`,
        );
      } else if (targetRank === rank) {
        if (!folderEdges.has(unit)) folderEdges.set(unit, new Map());
        folderEdges.get(unit).set(targetUnit, `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
      }
    }
  }
  for (const [from, targets] of folderEdges) {
    for (const [to, where] of targets) {
      const back = folderEdges.get(to)?.get(from);
      if (back && from < to) problems.push(`${from} and ${to} import each other: ${where} and ${back}`);
    }
  }
  if (problems.length > 0) {
    process.stderr.write(
      `import direction: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
    );
    process.exit(1);
  }
  process.stdout.write('import direction: every import points down the layers\n');
}

main();
