/**
 * Report benchmark: a related-work report (src/pipeline/report-service.ts) on each subject of
 * data/questions/topic-subjects.jsonl over the bench graph, against the SYNERGY review the subject was phrased from
 * (labels in ../shared): the fronts found, written and set aside as the subject's edge, the papers covered and cited,
 * how many of the cited papers the review included (its experts' judgement of relevance) and how many are among its
 * candidates, the share of chosen sentences that verified, and the time. The subjects' parts are those of
 * bench:topics; MIN_FRONT_CLOSENESS was chosen on three other phrasings (docs/ask.md), none of these.
 *
 *   node dist/scripts/bench/reports.js [--data ../shared/data] [--part unseen]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { MIN_FRONT_CLOSENESS } from '../../src/pipeline/report-service';
import { loadQrels } from '../../src/retrieval/evaluation';
import { argument, openBenchApp, runWhenMain } from './env';

interface Subject {
  review: string;
  phrase: string;
  part: 'tuned' | 'unseen';
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const part = argument(args, '--part');
  const qrels = loadQrels(path.join(shared, 'synergy', 'labels'), (id) => id);
  const subjects = readFileSync(path.join(PROJECT_ROOT, 'data', 'questions', 'topic-subjects.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Subject)
    .filter((s) => !part || s.part === part);
  const app = await openBenchApp({ CITEGRAPH_EXTERNAL_SEARCH: 'false' });
  const totals = { cited: 0, included: 0, candidates: 0, chosen: 0, verified: 0, expected: 0 };
  try {
    const lines = [
      `reports on the bench graph against the SYNERGY reviews (fronts written need closeness ≥ ${MIN_FRONT_CLOSENESS.toFixed(2)}):`,
      '| part | review | subject | papers | fronts written / edge / all | covered | cited | cited included (base rate) | cited candidates | sentences verified | ms |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    for (const subject of subjects) {
      const labels = qrels.get(subject.review);
      if (!labels) throw new Error(`no labels for ${subject.review} under ${shared}`);
      const started = performance.now();
      const report = await app.reports.report(subject.phrase, {});
      const ms = performance.now() - started;
      const fronts = report.sections.filter((s) => s.kind === 'front');
      const edge = /At the edge of the subject and not written up: (.*) — papers/.exec(
        report.sections
          .at(-1)!
          .sentences.map((s) => s.text)
          .join(' '),
      );
      const edgeCount = edge ? edge[1]!.split('; ').length : 0;
      const all = /they form (\d+) research front/.exec(report.sections[0]!.sentences[1]!.text)?.[1] ?? '0';
      const cited = report.bibliography.map((b) => b.paperId);
      const included = cited.filter((id) => (labels.get(id) ?? 0) > 0).length;
      const candidates = cited.filter((id) => labels.has(id)).length;
      const quoted = fronts.flatMap((s) => s.sentences).filter((s) => s.kind === 'cited').length;
      const chosen = quoted + report.dropped.length;
      totals.cited += cited.length;
      totals.included += included;
      totals.expected += (cited.length * [...labels.values()].filter((g) => g > 0).length) / labels.size;
      totals.candidates += candidates;
      totals.chosen += chosen;
      totals.verified += quoted;
      lines.push(
        `| ${subject.part} | ${subject.review} | ${subject.phrase} | ${report.papers} | ${fronts.length} / ${edgeCount} / ${all} | ${report.covered} | ${cited.length} | ${included} (${((100 * [...labels.values()].filter((g) => g > 0).length) / labels.size).toFixed(1)}% of candidates) | ${candidates} | ${quoted}/${chosen} | ${ms.toFixed(0)} |`,
      );
    }
    const share = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}% (${n}/${d})`;
    lines.push(
      '',
      `cited papers the review included: ${share(totals.included, totals.cited)} (${totals.expected.toFixed(1)} expected from the reviews' base rates); among its candidates: ${share(totals.candidates, totals.cited)}; chosen sentences verified: ${share(totals.verified, totals.chosen)}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench:reports', main);
