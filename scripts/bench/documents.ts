/**
 * Document ingestion benchmark: pages/s extracted, chunks/s, and the share of time spent extracting (pdf.js and
 * layout), embedding and writing, on a folder of generated two-column PDFs (made by headless Chromium from CC0
 * SYNERGY abstracts, `make-document-fixtures --bench`) and on the largest committed fixture. Ingests into the
 * collection `bench-documents` of the bench graph (or NEO4J_URI) and deletes it afterwards.
 *
 *   scripts/bench/documents [--papers N]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import type { IngestSummary } from '../../src/ingest/ingest-types';
import { openBenchApp } from './env';

function report(label: string, summary: IngestSummary): string {
  const t = summary.timings;
  const total = t.extractMs + t.embedMs + t.writeMs + t.chunkMs;
  const share = (ms: number) => `${((100 * ms) / Math.max(1, total)).toFixed(0)}%`;
  const d = summary.documents;
  return [
    `${label}: ${d.written} documents, ${d.pages} pages, ${d.sections} sections, ${d.chunks} chunks, references ${d.referencesResolved}/${d.references} resolved, skipped ${summary.skipped.length}`,
    `  wall ${(summary.timings.totalMs / 1000).toFixed(1)} s  pages/s extracted ${(d.pages / Math.max(0.001, t.extractMs / 1000)).toFixed(1)}  chunks/s end to end ${(d.chunks / Math.max(0.001, summary.timings.totalMs / 1000)).toFixed(1)}`,
    `  time: extracting ${share(t.extractMs)} (${(t.extractMs / 1000).toFixed(1)} s)  chunking ${share(t.chunkMs)}  embedding ${share(t.embedMs)} (${(t.embedMs / 1000).toFixed(1)} s)  writing ${share(t.writeMs)} (${(t.writeMs / 1000).toFixed(1)} s)`,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const papers = args.includes('--papers') ? Number(args[args.indexOf('--papers') + 1]) : 8;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-documents-'));
  const app = await openBenchApp();
  try {
    execFileSync(
      'node',
      [path.join(__dirname, '..', 'tools', 'make-document-fixtures.js'), '--bench', dir, String(papers)],
      {
        stdio: 'ignore',
      },
    );
    const files = readdirSync(dir).map((name) => path.join(dir, name));
    await app.embedder();
    const generated = await app.ingest.ingestFiles(files, {
      embed: 'now',
      collection: 'bench-documents',
      progress: false,
    });
    process.stdout.write(`${report(`generated PDFs (${files.length})`, generated)}\n`);
    const largest = path.join(PROJECT_ROOT, 'test', 'fixtures', 'documents', 'two-column-paper.pdf');
    const single = await app.ingest.ingestFiles([largest], {
      embed: 'now',
      collection: 'bench-documents',
      progress: false,
    });
    process.stdout.write(`${report('two-column-paper.pdf', single)}\n`);
  } finally {
    await app.ingest.deleteCollection('bench-documents');
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
