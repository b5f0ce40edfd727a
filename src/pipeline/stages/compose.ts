import type { Evidence } from '../../domain';
import { similarityScale } from '../../embedding/similarity-scale';
import { cosine } from '../../embedding/embedder';
import { extractiveAnswer, quotableFor } from '../../generation/extractive';
import { answerPrompt } from '../../generation/prompts';
import { answerClaims, verifyAnswer } from '../../generation/verify';
import type { AnswerGenerator, AskDependencies, AskResult, Gathered } from '../ask-types';
import { buildContext, findContradictions } from '../evidence';
import { abstentionReason, buildResult } from '../result';
import { isNonFatal, isSourceFailure, runStage, type Stage } from '../stage';
import { quotable, type Related as RelatedTo, relateStage, unconnectedReason } from './relate';

/** With how the question's key concepts are connected (relational sufficiency). */
type Related = RelatedTo<Gathered>;

/** The evidence that goes to the generator, under the token budget, strongest at both ends. */
type InContext = Related & {
  readonly context: Evidence[];
};

/** After the pre-generation check: sub-queries without evidence, possible contradictions, passage vectors. */
type Checked = InContext & {
  readonly gaps: string[];
  readonly contradictions: AskResult['contradictions'];
  readonly passageVectors: Map<string, Float32Array>;
};

/** A draft answer and what wrote it. */
type Drafted = Checked & {
  readonly draft: string;
  readonly generator: AnswerGenerator;
};

/** The draft with every sentence checked against the passage it cites. */
interface Verified extends Drafted {
  readonly verification: ReturnType<typeof verifyAnswer>;
  /** When the model's draft was replaced by an extractive one: how many of its sentences stood and fell. */
  readonly replacedDraft?: { verified: number; dropped: ReturnType<typeof verifyAnswer>['dropped'] };
}

/** The papers that connect the question's concepts: the context holds them and the answer reads them first. */
const firstPapers = (connection: Related['connection']): Set<string> =>
  new Set(connection.known.length >= 2 ? [...connection.connectingPapers, ...connection.bridgingPapers] : []);

const labelOf = (context: readonly Evidence[], evidence: Evidence) => `E${context.indexOf(evidence) + 1}`;

function contextStage(deps: AskDependencies): Stage<Related, InContext> {
  return {
    name: 'context',
    run: async (state) => {
      const embedder = await deps.embedder();
      const { ordered } = buildContext(
        state.pool.values(),
        deps.settings.generation.contextTokens,
        (text) => embedder.tokenizer.count(text),
        deps.settings.evidence.minEvidenceScore,
        firstPapers(state.connection),
      );
      return { ...state, context: ordered };
    },
    note: (state) => `${state.context.length} passages in the context`,
  };
}

function precheckStage(deps: AskDependencies): Stage<InContext, Checked> {
  const gapsOf = (state: InContext) =>
    state.subQueries
      .filter(
        (sub) =>
          !state.pool
            .values()
            .some((e) => e.foundBy.includes(sub.text) && e.score >= deps.settings.evidence.minEvidenceScore),
      )
      .map((sub) => `no evidence for "${sub.text}"`);
  return {
    name: 'precheck',
    run: async (state) => {
      // The chunks' stored embeddings (title + passage, computed at ingest) stand for the passages.
      const vectors = await deps.catalog.evidence.chunkEmbeddings(state.context.map((e) => e.id));
      const missing = state.context.filter((e) => !vectors.has(e.id));
      if (missing.length > 0) {
        const embedded = await (await deps.embedder()).embed(missing.map((e) => e.text));
        embedded.forEach((vector, i) => vectors.set(missing[i]!.id, vector));
      }
      const scale = similarityScale(deps.settings.model.name);
      const contradictions = findContradictions(state.context, (a, b) => {
        const va = vectors.get(a.id);
        const vb = vectors.get(b.id);
        return va && vb ? scale.toReference(cosine(va, vb), 'passage') : 0;
      });
      return { ...state, gaps: gapsOf(state), contradictions, passageVectors: vectors };
    },
    tolerates: {
      failure: isNonFatal,
      fallback: (state) => ({ ...state, gaps: gapsOf(state), contradictions: [], passageVectors: new Map() }),
    },
    note: (state) => `${state.gaps.length} gaps, ${state.contradictions.length} possible contradictions`,
  };
}

function extractiveDraft(deps: AskDependencies, state: Checked): Promise<string> {
  return deps
    .embedder()
    .then((embedder) =>
      extractiveAnswer(
        state.question,
        quotable(state.context, state.connection),
        (e) => labelOf(state.context, e),
        embedder,
        deps.settings.generation.extractiveSentences,
        firstPapers(state.connection),
      ),
    )
    .then((result) => result.answer);
}

/** The LLM's answer citing evidence labels; without an LLM (or when it fails) the extractive generator's. */
function generateStage(deps: AskDependencies): Stage<Checked, Drafted> {
  return {
    name: 'generate',
    run: async (state) => {
      if (state.ctx.llm) {
        try {
          const evidence = state.context.map((e) => ({
            label: labelOf(state.context, e),
            source: `${e.paper.title ?? e.paperId}, ${e.paper.year ?? 'n.d.'}`,
            text: e.text,
          }));
          const result = await state.ctx.llm.chat(answerPrompt(state.question, evidence));
          return { ...state, draft: result.text, generator: 'llm' };
        } catch (error) {
          if (!isSourceFailure(error)) throw error;
          state.trace.push({
            stage: 'generate',
            ms: 0,
            note: `LLM failed, extractive instead: ${(error as Error).message}`,
          });
        }
      }
      return { ...state, draft: await extractiveDraft(deps, state), generator: 'extractive' };
    },
    note: (state) => state.generator,
  };
}

/**
 * Every factual sentence needs a cited passage that supports it. An extractive answer is made of verbatim quotes
 * (exact alignment); a model's sentences also get the embedding similarity of the semantic alignment, computed in one
 * batch. When no sentence the model wrote verifies with a citation, the answer is regenerated extractively once.
 */
function verifyStage(deps: AskDependencies): Stage<Drafted, Verified> {
  return {
    name: 'verify',
    run: async (state) => {
      const labels = new Map(state.context.map((e, index) => [`E${index + 1}`, e.id]));
      const resolve = (label: string) => labels.get(label.startsWith('E') ? label : `E${label}`);
      const pool = new Map(state.context.map((e) => [e.id, e]));
      const threshold = deps.settings.evidence.supportThreshold;
      let similarity: ((sentence: string, e: Evidence) => number) | undefined;
      if (state.generator === 'llm') {
        const claims = answerClaims(state.draft);
        const vectors = claims.length ? await (await deps.embedder()).embed(claims) : [];
        const claimVector = new Map(claims.map((claim, i) => [claim, vectors[i]!]));
        const scale = similarityScale(deps.settings.model.name);
        similarity = (sentence, e) => {
          const a = claimVector.get(sentence);
          const b = state.passageVectors.get(e.id);
          return a && b ? scale.toReference(cosine(a, b), 'passage') : 0;
        };
      }
      const quotable = quotableFor(state.question);
      const verification = verifyAnswer(state.draft, pool, resolve, threshold, similarity, quotable);
      // Framing sentences ("The evidence shows:") alone are no answer either.
      const cited = verification.sentences.some((sentence) => sentence.citations.length > 0);
      if (state.generator === 'llm' && verification.dropped.length > 0 && !cited) {
        const draft = await extractiveDraft(deps, state);
        return {
          ...state,
          draft,
          generator: 'extractive',
          verification: verifyAnswer(draft, pool, resolve, threshold, similarity, quotable),
          replacedDraft: { verified: verification.sentences.length, dropped: verification.dropped },
        };
      }
      return { ...state, verification };
    },
    note: (state) =>
      `${state.verification.sentences.length} sentences verified, ${state.verification.dropped.length} dropped` +
      (state.replacedDraft
        ? ` (the model's draft: ${state.replacedDraft.verified} framing sentences stood, ${state.replacedDraft.dropped.length} dropped — ${droppedTally(state.replacedDraft.dropped)}; answered extractively instead)`
        : ''),
  };
}

/** Why sentences were dropped, most frequent reason first: "8 × no cited passage supports it, 3 × …". */
function droppedTally(dropped: ReturnType<typeof verifyAnswer>['dropped']): string {
  const counts = new Map<string, number>();
  for (const { reason } of dropped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${n} × ${reason}`)
    .join(', ');
}

/** Where a current-world answer comes from, and how recent it is. */
function sourceNoteOf(state: Verified): string | null {
  if (state.decision.route !== 'current_world') return null;
  const external = state.context.filter((e) => e.source === 'external');
  if (external.length === 0) {
    return 'This is a question about the current world, but no external source could be reached: the answer rests on the local graph only and may be out of date.';
  }
  const sources = [...new Set(state.externalSearches.filter((s) => s.kept > 0).map((s) => s.source))].join(', ');
  const newest = Math.max(...external.map((e) => e.paper.year ?? 0)) || 'an unknown year';
  return `This answer comes from external sources (${sources}) fetched ${external[0]!.paper.fetchedAt ?? 'now'}; the newest paper is from ${newest}. Scholarly sources lag news by months.`;
}

/**
 * Why a current-world question gets no answer when nothing outside the graph could be searched: the graph's papers
 * end in some year and cannot tell what happened since. Says which years the graph covers, that the news could not
 * be searched (off, or no source answered), and names the closest papers as background, never as current.
 */
async function offlineCurrentReason(deps: AskDependencies, state: Gathered): Promise<string> {
  const coverage = await deps.analytics.trends.coverageYears();
  const tried = state.externalSearches.length > 0;
  const background = state.pool
    .bestPerPaper()
    .slice(0, 3)
    .map((e) => `"${e.paper.title ?? e.paperId}" (${e.paper.year ?? 'n.d.'})`);
  return [
    `This asks about the current world, and ${tried ? 'no external source answered' : 'external search is off'}, so no news or recent record could be searched.`,
    coverage
      ? `The graph's papers run from ${coverage.firstYear} to ${coverage.lastYear}; they cannot say what happened since.`
      : 'The graph holds no dated papers.',
    background.length ? `Background only, not current: ${background.join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * From the evidence to the answer: the context under its budget, the pre-generation check, generation, verification
 * of every citation; an abstention when the evidence is not sufficient or nothing verifies.
 */
export async function compose(deps: AskDependencies, gathered: Gathered): Promise<AskResult> {
  const related = await runStage(relateStage<Gathered>(deps), gathered);
  const inContext = await runStage(contextStage(deps), related);
  const checked = await runStage(precheckStage(deps), inContext);
  const parts = { gaps: checked.gaps, contradictions: checked.contradictions };
  const abstainBeforeGeneration = (reason: string) =>
    buildResult(deps, checked, {
      ...parts,
      answer: '',
      sentences: [],
      bibliography: [],
      dropped: [],
      generator: 'none',
      abstained: true,
      reason,
      sourceNote: null,
    });
  // A current-world question is not answered from old abstracts as if they were the news.
  if (checked.decision.route === 'current_world' && !checked.context.some((e) => e.source === 'external')) {
    return abstainBeforeGeneration(await offlineCurrentReason(deps, checked));
  }
  if (
    (checked.connection.unconnected.length > 0 || checked.connection.absent.length > 0) &&
    checked.context.length > 0
  ) {
    return abstainBeforeGeneration(unconnectedReason(checked));
  }
  if (checked.sufficiency.score < deps.settings.evidence.abstainBelow || checked.context.length === 0) {
    return abstainBeforeGeneration(abstentionReason(checked));
  }
  const drafted = await runStage(generateStage(deps), checked);
  const verified = await runStage(verifyStage(deps), drafted);
  const { verification } = verified;
  if (verification.sentences.every((s) => s.citations.length === 0)) {
    return buildResult(deps, verified, {
      ...parts,
      answer: '',
      sentences: [],
      bibliography: [],
      dropped: verification.dropped,
      generator: verified.generator,
      abstained: true,
      reason: `${abstentionReason(verified)} No sentence of the draft answer could be verified against its cited passage.`,
      sourceNote: null,
    });
  }
  return buildResult(deps, verified, {
    ...parts,
    answer: verification.answer,
    sentences: verification.sentences,
    bibliography: verification.bibliography,
    dropped: verification.dropped,
    generator: verified.generator,
    abstained: false,
    reason: null,
    sourceNote: sourceNoteOf(verified),
  });
}
