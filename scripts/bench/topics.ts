/**
 * Topic-set benchmark: for each SYNERGY review with labels in ../shared, subjects phrased as an analyst would from its
 * criteria (data/questions/topic-subjects.jsonl; part "tuned" was looked at when TOPIC_SIMILARITY was chosen, part
 * "unseen" was written beside it and only reported), the share of the review's included papers inside the topic set
 * (recall), the set's size against the review's candidate set, the share of the set that is among the candidates,
 * and the same for the words-and-concept rule alone (the rule before meaning was added). Run scripts/bench/ingest
 * --keep first.
 *
 *   scripts/bench/topics [--data ../shared/data]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { loadQrels } from '../../src/retrieval/evaluation';
import { openBenchApp } from './env';

interface Subject {
  review: string;
  phrase: string;
  part: 'tuned' | 'unseen';
}

function argument(args: readonly string[], name: string): string | null {
  const index = args.indexOf(name);
  return index >= 0 ? (args[index + 1] ?? null) : null;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const qrels = loadQrels(path.join(shared, 'synergy', 'labels'), (id) => id);
  const subjects = readFileSync(path.join(PROJECT_ROOT, 'data', 'questions', 'topic-subjects.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Subject);
  const app = await openBenchApp();
  try {
    const lines = [
      'topic sets against the SYNERGY reviews with labels (recall = included papers inside the set):',
      '| part | review | phrase | candidates | included | set | set / candidates | in candidates | recall | words+concept: set, recall | ms |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    const worst = new Map<string, number>();
    const timings: number[] = [];
    for (const subject of subjects) {
      const labels = qrels.get(subject.review);
      if (!labels) throw new Error(`no labels for ${subject.review} under ${shared}`);
      const included = [...labels].filter(([, grade]) => grade > 0).map(([id]) => id);
      const started = process.hrtime.bigint();
      const set = await app.analytics.topics.topicSet(subject.phrase);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      timings.push(ms);
      const ids = new Set(set.papers.map((paper) => paper.id));
      const lexical = new Set(set.papers.filter((p) => p.byWords || p.byConcept).map((p) => p.id));
      const recall = included.filter((id) => ids.has(id)).length / included.length;
      const lexicalRecall = included.filter((id) => lexical.has(id)).length / included.length;
      const inCandidates = [...ids].filter((id) => labels.has(id)).length;
      const key = `${subject.part} ${subject.review}`;
      worst.set(key, Math.min(worst.get(key) ?? 1, recall));
      lines.push(
        `| ${subject.part} | ${subject.review} | ${subject.phrase} | ${labels.size} | ${included.length} | ${ids.size}${set.truncated ? '+' : ''} | ${(ids.size / labels.size).toFixed(2)} | ${(inCandidates / Math.max(1, ids.size)).toFixed(2)} | ${recall.toFixed(2)} | ${lexical.size}, ${lexicalRecall.toFixed(2)} | ${ms.toFixed(0)} |`,
      );
    }
    lines.push('', '| part | review | lowest recall over its phrasings |', '|---|---|---|');
    for (const [key, recall] of worst) lines.push(`| ${key.replace(' ', ' | ')} | ${recall.toFixed(2)} |`);
    const sorted = [...timings].sort((a, b) => a - b);
    lines.push(
      '',
      `topic set latency: p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-topics: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
