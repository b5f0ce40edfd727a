/**
 * Ask benchmark, offline (extractive generator, no external search): p50/p95 latency of `ask` over 100 questions and
 * the share of each stage, plus abstention results:
 *   - 50 SciFact claims whose cited abstract holds evidence: answered? does a citation point at the gold abstract?
 *   - 50 SciFact claims without evidence ("not enough info": the cited abstract neither supports nor refutes)
 *   - 20 off-topic questions the corpus does not cover: should abstain.
 * Runs against the graph `scripts/bench-ingest --keep` leaves (or NEO4J_URI), inside the scifact collection.
 *
 *   scripts/bench-ask [--questions N]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config/settings';
import { percentile } from '../src/retrieval/evaluation';
import { openBenchApp } from './bench-env';

const OFF_TOPIC = [
  'What is the boiling point of liquid nitrogen on Mars?',
  'Who won the 1998 football world cup final?',
  'How do I bake sourdough bread with a crispy crust?',
  'What is the orbital period of Jupiter’s moon Europa?',
  'Which programming language is best for writing compilers?',
  'How tall is the Eiffel Tower including its antennas?',
  'What are the rules of cricket’s leg before wicket?',
  'How does a jet engine turbofan bypass ratio affect fuel economy?',
  'What is the plot of the novel Moby Dick?',
  'How are diamonds formed in the Earth’s mantle?',
  'What is the best strategy for opening moves in chess?',
  'How do I configure a Kubernetes ingress controller?',
  'What causes the northern lights over Norway?',
  'Which grape varieties are used in Champagne?',
  'How fast does a cheetah run compared with a greyhound?',
  'What is the tax rate on capital gains in Portugal?',
  'How do suspension bridges resist wind oscillation?',
  'What instruments are in a string quartet?',
  'How long does it take light from the Sun to reach Neptune?',
  'What is the recipe for a classic French omelette?',
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const perGroup = args.includes('--questions') ? Number(args[args.indexOf('--questions') + 1]) / 2 : 50;
  const app = await openBenchApp(
    { CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' },
    { llm: null },
  );
  try {
    const claims = readFileSync(
      path.resolve(PROJECT_ROOT, '..', 'shared', 'data', 'scifact', 'claims.train.jsonl'),
      'utf8',
    )
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { _id: string; claim: string; cited_doc_ids: string[]; has_evidence: boolean },
      );
    const groups = [
      { name: 'claims with evidence', items: claims.filter((c) => c.has_evidence).slice(0, perGroup) },
      { name: 'claims without evidence (NEI)', items: claims.filter((c) => !c.has_evidence).slice(0, perGroup) },
      {
        name: 'off-topic questions',
        items: OFF_TOPIC.map((claim, i) => ({
          _id: `off${i}`,
          claim,
          cited_doc_ids: [] as string[],
          has_evidence: false,
        })),
      },
    ];
    await app.embedder();
    await app.ask.ask(app.requestContext(), 'Does aspirin prevent myocardial infarction?', {
      collections: ['scifact'],
    }); // warm-up
    const latencies: number[] = [];
    const stages: Record<string, number> = {};
    const lines: string[] = [];
    for (const group of groups) {
      let abstained = 0;
      let goldCited = 0;
      let citations = 0;
      let sentences = 0;
      const bands: Record<string, number> = {};
      for (const item of group.items) {
        const started = process.hrtime.bigint();
        const result = await app.ask.ask(app.requestContext(), item.claim, {
          collections: ['scifact'],
          externalSearch: false,
        });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (group.name !== 'off-topic questions') {
          latencies.push(ms);
          for (const step of result.trace)
            if (step.stage !== 'total') stages[step.stage] = (stages[step.stage] ?? 0) + step.ms;
        }
        bands[result.sufficiency.band] = (bands[result.sufficiency.band] ?? 0) + 1;
        if (result.abstained) abstained += 1;
        sentences += result.sentences.length;
        citations += result.sentences.reduce((n, s) => n + s.citations.length, 0);
        const gold = new Set(item.cited_doc_ids.map((id) => `scifact:${id}`));
        if (result.sentences.some((s) => s.citations.some((c) => gold.has(c.paperId)))) goldCited += 1;
      }
      const n = group.items.length;
      lines.push(
        `| ${group.name} | ${n} | ${abstained} (${((100 * abstained) / n).toFixed(0)}%) | ${goldCited} (${((100 * goldCited) / n).toFixed(0)}%) | ${(sentences / Math.max(1, n - abstained)).toFixed(1)} | ${citations} | ${Object.entries(
          bands,
        )
          .map(([b, k]) => `${b} ${k}`)
          .join(', ')} |`,
      );
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const total = latencies.reduce((a, b) => a + b, 0);
    process.stdout.write(
      [
        `ask over ${latencies.length} SciFact claims (offline, extractive, no external search), collection scifact:`,
        `latency ms: p50 ${percentile(sorted, 50).toFixed(0)}  p95 ${percentile(sorted, 95).toFixed(0)}  mean ${(total / latencies.length).toFixed(0)}`,
        `share of time: ${Object.entries(stages)
          .sort((a, b) => b[1] - a[1])
          .map(([stage, ms]) => `${stage} ${((100 * ms) / total).toFixed(1)}%`)
          .join(', ')}`,
        '',
        '| questions | n | abstained | a citation points at the gold abstract | sentences per answer | citations | bands |',
        '|---|---|---|---|---|---|---|',
        ...lines,
        '',
      ].join('\n'),
    );
  } finally {
    await app.close();
  }
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`bench-ask failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
