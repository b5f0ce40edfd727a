import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSettings, PROJECT_ROOT } from '../../src/config/settings';
import { OnnxSentenceEmbedder } from '../../src/embedding/embedder';
import { classifierLoader, readLabelled } from '../../src/pipeline/route-classifier';
import { routeQuestion } from '../../src/pipeline/router';
import { combineRoute, definitelyBibliometric } from '../../src/pipeline/stages/route';

/**
 * The shipped router (rules + classifier trained on data/questions/router-train.jsonl) on the held-out questions,
 * which were written before any tuning and are never trained on. scripts/bench/router prints the full figures.
 */
describe('router classifier on the real model', () => {
  it('routes held-out questions phrased unlike the rules at least 85% right, better than the rules alone', async () => {
    const embedder = await OnnxSentenceEmbedder.load(loadSettings().model);
    const cache = mkdtempSync(path.join(os.tmpdir(), 'citegraph-router-'));
    const load = classifierLoader(
      path.join(PROJECT_ROOT, 'data', 'questions', 'router-train.jsonl'),
      () => Promise.resolve(embedder),
      cache,
    );
    const classifier = await load();
    expect(await load()).toBe(classifier); // trained once per process
    const heldout = readLabelled(path.join(PROJECT_ROOT, 'data', 'questions', 'router-heldout.jsonl'));
    const vectors = await embedder.embed(heldout.map((q) => q.question));
    const combined = heldout.filter((q, i) => {
      const rules = routeQuestion(q.question);
      return (
        combineRoute(rules, classifier.predict(vectors[i]!), { definite: definitelyBibliometric(q.question, rules) })
          .route === q.route
      );
    }).length;
    const rules = heldout.filter((q) => routeQuestion(q.question).route === q.route).length;
    expect(combined / heldout.length).toBeGreaterThanOrEqual(0.85);
    expect(combined).toBeGreaterThan(rules);
  });

  it('reports a malformed labelled file with the line', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'citegraph-router-')), 'bad.jsonl');
    writeFileSync(file, '{"question":"a","route":"content"}\n{"question":"b","route":"weather"}\n');
    expect(() => readLabelled(file)).toThrow(/bad\.jsonl:2/);
  });
});
