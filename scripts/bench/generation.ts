/**
 * Generation benchmark: the answers a real model writes, held to the verifier. Runs the content questions of the
 * evaluation set (data/questions/ask-eval.jsonl, answerable ones; both parts — nothing here is tuned on them) on the
 * bench graph with the model the settings name — by default the local SmolLM2-135M-Instruct (CITEGRAPH_LLM_GGUF=smollm2,
 * `node scripts/setup.js --only local-llm`), or an OpenAI-compatible endpoint when OPENAI_BASE_URL is set — and prints
 * what share of the model's sentences verified, how often its whole draft was replaced by an extractive answer, why
 * sentences were dropped, how fast the local model writes, and the latency of an answer.
 *
 *   node dist/scripts/bench/generation.js [--limit 20]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { LocalModelClient } from '../../src/generation/local-llm';
import { argument, openBenchApp, runWhenMain } from './env';

interface Question {
  id: string;
  question: string;
  route: string;
  answerable: boolean;
  split: string;
}

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const limit = Number(argument(process.argv, '--limit') ?? 20);
  const questions = readFileSync(path.join(PROJECT_ROOT, 'data', 'questions', 'ask-eval.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Question)
    .filter((q) => q.route === 'content' && q.answerable)
    .slice(0, limit);
  const app = await openBenchApp({
    CITEGRAPH_EXTERNAL_SEARCH: 'false',
    ...(process.env.OPENAI_BASE_URL || process.env.CITEGRAPH_LLM_GGUF ? {} : { CITEGRAPH_LLM_GGUF: 'smollm2' }),
  });
  if (!app.llm) throw new Error('no model: set OPENAI_BASE_URL or CITEGRAPH_LLM_GGUF');
  const totals = {
    written: 0,
    verified: 0,
    framing: 0,
    answers: 0,
    modelAnswers: 0,
    replaced: 0,
    abstained: 0,
    failed: 0,
  };
  const failures = new Map<string, number>();
  const reasons = new Map<string, number>();
  const latencies: number[] = [];
  try {
    for (const q of questions) {
      const started = Date.now();
      const result = await app.ask.ask(app.requestContext(), q.question, { externalSearch: false });
      latencies.push(Date.now() - started);
      totals.answers += 1;
      if (result.abstained) totals.abstained += 1;
      const failed = result.trace.find((t) => t.stage === 'generate' && t.note.startsWith('LLM failed'));
      if (failed) {
        totals.failed += 1;
        const reason = failed.note.replace(/^LLM failed, extractive instead: (LLM call failed: )?/, '');
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
      }
      const generated = result.trace.filter((t) => t.stage === 'generate').pop()?.note ?? '';
      if (!generated.startsWith('llm')) {
        process.stdout.write(
          `${q.id} ${q.split}: ${result.abstained ? 'abstained' : result.generator}${failed ? ` (the model failed: ${failed.note})` : ''}, ${latencies[latencies.length - 1]} ms\n`,
        );
        continue;
      }
      totals.modelAnswers += 1;
      const verify = result.trace.find((t) => t.stage === 'verify')?.note ?? '';
      const replaced = /the model's draft: (\d+) framing sentences stood, (\d+) dropped — (.*); answered/.exec(verify);
      if (replaced) {
        totals.replaced += 1;
        totals.framing += Number(replaced[1]);
        totals.written += Number(replaced[1]) + Number(replaced[2]);
        for (const part of replaced[3]!.split(/, (?=\d+ × )/)) {
          const [n, reason] = part.split(' × ') as [string, string];
          const key = reason.replace(/\(threshold [\d.]+\)/, '').trim();
          reasons.set(key, (reasons.get(key) ?? 0) + Number(n));
        }
      } else {
        const cited = result.sentences.filter((s) => s.citations.length > 0).length;
        totals.verified += cited;
        totals.framing += result.sentences.length - cited;
        totals.written += result.sentences.length + result.droppedSentences.length;
        for (const dropped of result.droppedSentences) {
          const reason = dropped.reason.replace(/\(threshold [\d.]+\)/, '').trim();
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
      }
      process.stdout.write(
        `${q.id} ${q.split}: ${result.generator}${replaced ? ' (model draft replaced)' : ''}, ${verify}, ${latencies[latencies.length - 1]} ms\n`,
      );
    }
    const share = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}% (${n}/${d})` : '–');
    const lines = [
      `model: ${app.llm.model}; ${questions.length} content questions of ask-eval (dev and held-out; none tuned on)`,
      `answers written by the model: ${share(totals.modelAnswers, totals.answers)}; replaced by an extractive answer because none of the model's sentences verified: ${share(totals.replaced, totals.modelAnswers)}; abstained: ${share(totals.abstained, totals.answers)}`,
      `the model's answer call failed (the extractive generator answered): ${share(totals.failed, totals.answers)}${[...failures.entries()].map(([reason, n]) => `; ${n} × ${reason}`).join('')}`,
      `the model's sentences: ${totals.written} written, ${share(totals.verified, totals.written)} verified with a citation, ${share(totals.framing, totals.written)} framing (no claim), the rest dropped`,
      ...[...reasons.entries()].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `  dropped: ${n} × ${reason}`),
      `answer latency p50 ${percentile(latencies, 0.5)} ms, p95 ${percentile(latencies, 0.95)} ms`,
    ];
    if (app.llm instanceof LocalModelClient) {
      const { calls, completionTokens, ms, loadMs } = app.llm.meter;
      lines.push(
        `local model: ${calls} calls, ${completionTokens} tokens written in ${ms} ms = ${((1000 * completionTokens) / Math.max(1, ms)).toFixed(1)} tokens/s (prompt reading included); load ${loadMs} ms`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench:generation', main);
