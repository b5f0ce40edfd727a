/**
 * Router benchmark: accuracy of the rules alone, the embedding classifier alone and the two combined
 * (src/pipeline/stages/route.ts), on the training questions by 5-fold cross-validation (the only figures used to
 * choose CLASSIFIER_TRUST) and on the held-out questions (data/questions/router-heldout.jsonl, written before any
 * tuning and only reported). Needs the model, not the database.
 *
 *   scripts/bench/router
 */
import path from 'node:path';
import { loadSettings, PROJECT_ROOT } from '../../src/config/settings';
import { OnnxSentenceEmbedder } from '../../src/embedding/embedder';
import {
  embedLabelled,
  type LabelledQuestion,
  readLabelled,
  RouteClassifier,
} from '../../src/pipeline/route-classifier';
import { type Route, routeQuestion, ROUTES } from '../../src/pipeline/router';
import { combineRoute, routeOptions } from '../../src/pipeline/stages/route';
import { runWhenMain } from './env';

function accuracy(predicted: readonly Route[], labelled: readonly LabelledQuestion[]): string {
  const right = predicted.filter((route, i) => route === labelled[i]!.route).length;
  return `${((100 * right) / labelled.length).toFixed(1)}% (${right}/${labelled.length})`;
}

function confusion(predicted: readonly Route[], labelled: readonly LabelledQuestion[]): string[] {
  const lines = [`| expected \\ routed | ${ROUTES.join(' | ')} |`, `|---|${ROUTES.map(() => '---|').join('')}`];
  for (const expected of ROUTES) {
    const row = ROUTES.map(
      (routed) => predicted.filter((route, i) => labelled[i]!.route === expected && route === routed).length,
    );
    lines.push(`| ${expected} | ${row.join(' | ')} |`);
  }
  return lines;
}

async function main(): Promise<void> {
  const settings = loadSettings();
  const embedder = await OnnxSentenceEmbedder.load(settings.model);
  const train = readLabelled(path.join(PROJECT_ROOT, 'data', 'questions', 'router-train.jsonl'));
  const heldout = readLabelled(path.join(PROJECT_ROOT, 'data', 'questions', 'router-heldout.jsonl'));
  const trainVectors = await embedLabelled(train, embedder, settings.cacheDir);
  const heldVectors = await embedLabelled(heldout, embedder, null);

  // 5-fold cross-validation on the training questions: the classifier's guesses for questions it did not see.
  const folds = 5;
  const cvGuesses = new Array<ReturnType<RouteClassifier['predict']>>(train.length);
  for (let fold = 0; fold < folds; fold += 1) {
    const fit = train.map((_, i) => i).filter((i) => i % folds !== fold);
    const model = RouteClassifier.train(
      fit.map((i) => trainVectors[i]!),
      fit.map((i) => train[i]!.route),
    );
    train.forEach((_, i) => {
      if (i % folds === fold) cvGuesses[i] = model.predict(trainVectors[i]!);
    });
  }
  const rulesTrain = train.map((q) => routeQuestion(q.question));
  const lines: string[] = [`router: ${train.length} training questions (5-fold CV), ${heldout.length} held-out`, ''];
  lines.push('| on training (CV) | accuracy |', '|---|---|');
  lines.push(
    `| rules alone | ${accuracy(
      rulesTrain.map((d) => d.route),
      train,
    )} |`,
  );
  lines.push(
    `| classifier alone | ${accuracy(
      cvGuesses.map((g) => g.route),
      train,
    )} |`,
  );
  for (const trust of [0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
    const combined = rulesTrain.map(
      (rules, i) => combineRoute(rules, cvGuesses[i]!, { trust, ...routeOptions(train[i]!.question, rules) }).route,
    );
    lines.push(`| combined, trust ${trust} | ${accuracy(combined, train)} |`);
  }

  const model = RouteClassifier.train(
    trainVectors,
    train.map((q) => q.route),
  );
  const rulesHeld = heldout.map((q) => routeQuestion(q.question));
  const guessesHeld = heldVectors.map((v) => model.predict(v));
  const combinedHeld = rulesHeld.map(
    (rules, i) => combineRoute(rules, guessesHeld[i]!, routeOptions(heldout[i]!.question, rules)).route,
  );
  lines.push('', '| on held-out (never tuned on) | accuracy |', '|---|---|');
  lines.push(
    `| rules alone | ${accuracy(
      rulesHeld.map((d) => d.route),
      heldout,
    )} |`,
  );
  lines.push(
    `| classifier alone | ${accuracy(
      guessesHeld.map((g) => g.route),
      heldout,
    )} |`,
  );
  lines.push(`| combined (as shipped) | ${accuracy(combinedHeld, heldout)} |`);
  lines.push('', 'held-out, combined:', ...confusion(combinedHeld, heldout));
  const wrong = heldout
    .map((q, i) => ({ q, routed: combinedHeld[i]! }))
    .filter(({ q, routed }) => q.route !== routed)
    .map(({ q, routed }) => `  ${q.route} → ${routed}: ${q.question}`);
  lines.push('', `misrouted held-out questions (${wrong.length}):`, ...wrong, '');
  process.stdout.write(lines.join('\n'));
}

runWhenMain(module, 'bench-router', main);
