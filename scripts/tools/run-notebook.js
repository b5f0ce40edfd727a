#!/usr/bin/env node
'use strict';
/**
 * Runs examples/citegraph.ipynb headless against a running service and fails on any cell error. The notebook's Python
 * packages (examples/requirements.txt, from PyPI) go into a local virtual environment, .cache/notebook-venv, made
 * when missing or when the requirements change.
 *
 *   node scripts/tools/run-notebook.js [--url http://127.0.0.1:4000] [--collection Nelson_2002] [--out FILE | --save]
 *
 * --save writes the executed notebook (with its outputs) back to examples/citegraph.ipynb.
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const VENV = path.join(ROOT, '.cache', 'notebook-venv');
const REQUIREMENTS = path.join(ROOT, 'examples', 'requirements.txt');
const NOTEBOOK = path.join(ROOT, 'examples', 'citegraph.ipynb');
const PYTHON = path.join(VENV, 'bin', 'python');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args[0]} … exited with ${result.status}`);
}

function ensureVenv() {
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(REQUIREMENTS)).digest('hex');
  const marker = path.join(VENV, '.requirements-sha256');
  if (fs.existsSync(PYTHON) && fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === wanted) return;
  process.stderr.write('[notebook] installing examples/requirements.txt into .cache/notebook-venv\n');
  const python = spawnSync('python3', ['--version']).status === 0 ? 'python3' : 'python';
  run(python, ['-m', 'venv', VENV]);
  run(PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS]);
  fs.writeFileSync(marker, wanted);
}

const EXECUTE = `
import sys, nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
source, target = sys.argv[1], sys.argv[2]
notebook = nbformat.read(source, as_version=4)
client = NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": sys.argv[3]}})
try:
    client.execute()
finally:
    nbformat.write(notebook, target)
errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
print(f"[notebook] {sum(c.cell_type == 'code' for c in notebook.cells)} code cells run, {len(errors)} errors -> {target}")
sys.exit(1 if errors else 0)
`;

function main() {
  ensureVenv();
  const target = process.argv.includes('--save')
    ? NOTEBOOK
    : option('out', path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'notebook-')), 'citegraph.ipynb'));
  const env = {
    ...process.env,
    CITEGRAPH_URL: option('url', process.env.CITEGRAPH_URL || 'http://127.0.0.1:4000'),
    CITEGRAPH_COLLECTION: option('collection', process.env.CITEGRAPH_COLLECTION || 'Nelson_2002'),
  };
  run(PYTHON, ['-c', EXECUTE, NOTEBOOK, target, path.join(ROOT, 'examples')], { env });
}

try {
  main();
} catch (error) {
  process.stderr.write(`[notebook] failed: ${error.message}\n`);
  process.exit(1);
}
