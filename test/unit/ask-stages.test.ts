import { directionAnswer } from '../../src/pipeline/stages/computed/comparisons';
import { alignQuote, namesOnlyASource, verifyAnswer } from '../../src/generation/verify';
import { quotableFor } from '../../src/generation/extractive';
import { parseJsonObject } from '../../src/generation/llm';
import {
  buildContext,
  findContradictions,
  passesDriftGuard,
  scoreEvidence,
  scoreSufficiency,
  termRetention,
} from '../../src/pipeline/evidence';
import type { Evidence } from '../../src/domain';
import { constrainQuery, decompose } from '../../src/pipeline/stages/rewrite';
import { InMemoryDocumentFrequencies } from '../../src/retrieval/expansion';

const settings = { strongBand: 80, moderateBand: 50, minEvidenceScore: 30 };

function evidence(id: string, text: string, score: number, paper: Partial<Evidence['paper']> = {}): Evidence {
  return {
    id,
    paperId: paper.id ?? `P-${id}`,
    chunkId: id,
    text,
    field: 'abstract',
    start: 100,
    end: 100 + text.length,
    score,
    similarity: 0.5,
    source: 'local',
    foundBy: ['q'],
    paper: {
      id: paper.id ?? `P-${id}`,
      title: 'Aspirin and infarction',
      year: 2020,
      doi: '10.1000/x',
      venue: 'V',
      authors: 3,
      source: 'openalex',
      fetchedAt: null,
      ...paper,
    },
  };
}

describe('evidence scoring and sufficiency', () => {
  it('scores evidence from similarity and question-term coverage', () => {
    expect(
      scoreEvidence(0.6, 'aspirin prevents infarction', 'Does aspirin prevent infarction?'),
    ).toBeGreaterThanOrEqual(80);
    expect(scoreEvidence(0.05, 'the stock market fell', 'Does aspirin prevent infarction?')).toBe(0);
  });

  it('bands fixed evidence: strong, moderate and weak', () => {
    const q = 'Does low-dose aspirin prevent myocardial infarction?';
    const strong = [
      evidence('a', 'Low-dose aspirin prevented myocardial infarction in a randomised trial.', 95, {
        id: 'p1',
        year: 2024,
      }),
      evidence('b', 'Aspirin reduced the risk of a first myocardial infarction (low-dose).', 90, {
        id: 'p2',
        year: 2023,
      }),
      evidence('c', 'Prevention of infarction with low-dose aspirin.', 88, { id: 'p3', year: 2022 }),
      evidence('d', 'Aspirin and myocardial infarction prevention.', 80, { id: 'p4', year: 2021 }),
    ];
    const strongScore = scoreSufficiency(q, strong, 'content', settings, 2026);
    expect(strongScore.band).toBe('STRONG');
    expect(strongScore.dimensions.map((d) => d.name)).toEqual([
      'retrieval_confidence',
      'answer_specificity',
      'source_diversity',
      'metadata_completeness',
      'recency',
    ]);
    const moderate = scoreSufficiency(
      q,
      [
        evidence('a', 'Aspirin reduced infarction in one trial.', 70, { id: 'p1', year: 2010 }),
        evidence('b', 'Antiplatelet drugs and heart attack.', 45, { id: 'p2', year: 2008 }),
      ],
      'content',
      settings,
      2026,
    );
    expect(moderate.band).toBe('MODERATE');
    const weak = scoreSufficiency(
      q,
      [evidence('a', 'The stock market fell.', 5, { title: null, doi: null, venue: null, authors: 0 })],
      'content',
      settings,
      2026,
    );
    expect(weak.band).toBe('WEAK');
    expect(scoreSufficiency(q, [], 'content', settings).band).toBe('WEAK');
  });

  it('is fair to a small set of the caller’s own documents: diversity against the set, no metadata or recency', () => {
    const q = 'Does low-dose aspirin prevent myocardial infarction?';
    // Three uploaded documents without DOI, venue, authors or year; the best passages answer squarely.
    const own = (id: string, text: string, score: number) =>
      evidence(id, text, score, { id: `D${id}`, doi: null, venue: null, authors: 0, year: null });
    const passages = [
      own('a', 'Low-dose aspirin prevented myocardial infarction in a randomised trial.', 92),
      own('b', 'Aspirin at low dose reduced myocardial infarction.', 88),
    ];
    const asGraph = scoreSufficiency(q, passages, 'content', settings, 2026);
    const asSet = scoreSufficiency(q, passages, 'content', settings, 2026, 2);
    // Two papers of a large graph are half the diversity; two documents of a set of two are all of it.
    expect(asGraph.dimensions.find((d) => d.name === 'source_diversity')?.score).toBe(50);
    expect(asSet.dimensions.find((d) => d.name === 'source_diversity')?.score).toBe(100);
    for (const name of ['metadata_completeness', 'recency'])
      expect(asSet.dimensions.find((d) => d.name === name)?.weight).toBe(0);
    expect(asSet.dimensions.reduce((sum, d) => sum + d.weight, 0)).toBeCloseTo(1, 9);
    expect(asGraph.band).not.toBe('STRONG');
    expect(asSet.band).toBe('STRONG');
    // A set of three where one document answers is not fully diverse.
    expect(
      scoreSufficiency(q, passages.slice(0, 1), 'content', settings, 2026, 3).dimensions.find(
        (d) => d.name === 'source_diversity',
      )?.score,
    ).toBe(33);
  });

  it('weighs recency more for the current world', () => {
    const old = [evidence('a', 'Aspirin prevents myocardial infarction.', 90, { year: 1990 })];
    const content = scoreSufficiency('aspirin myocardial infarction', old, 'content', settings, 2026).score;
    const current = scoreSufficiency('aspirin myocardial infarction', old, 'current_world', settings, 2026).score;
    expect(current).toBeLessThan(content);
  });
});

describe('drift guard and decomposition', () => {
  it('keeps a reformulation only if it retains enough of the original terms', () => {
    expect(termRetention('aspirin myocardial infarction prevention', 'aspirin infarction antiplatelet')).toBe(0.5);
    expect(passesDriftGuard('aspirin myocardial infarction prevention', 'aspirin infarction antiplatelet', 0.3)).toBe(
      true,
    );
    expect(passesDriftGuard('aspirin myocardial infarction prevention', 'statin cholesterol trial', 0.3)).toBe(false);
  });

  it('decomposes on conjunctions without inventing words', () => {
    const { rewrite, subQueries } = decompose(
      'How do statins compared with aspirin affect cardiovascular events and mortality?',
      5,
    );
    expect(rewrite).toBe('statins compared aspirin affect cardiovascular events mortality');
    for (const sub of subQueries) for (const term of sub.split(' ')) expect(rewrite.split(' ')).toContain(term);
    expect(subQueries.length).toBeGreaterThan(1);
  });

  it('constrains LLM sub-queries to question words and corpus vocabulary', () => {
    const vocabulary = new InMemoryDocumentFrequencies();
    vocabulary.add('antiplatelet therapy infarction');
    expect(
      constrainQuery('antiplatelet therapy by Dr Fakename 2031 trial', 'Does aspirin prevent infarction?', vocabulary),
    ).toBe('antiplatelet therapy');
  });
});

describe('context and checks', () => {
  it('fills the budget strongest first and puts the strongest at both ends', () => {
    const items = [10, 90, 80, 70, 60, 50].map((score, i) => evidence(`e${i}`, `passage ${i} words here`, score));
    const { ordered, dropped } = buildContext(items, 1000, (t) => t.split(' ').length, 30);
    expect(ordered.map((e) => e.score)).toEqual([90, 70, 50, 60, 80]);
    expect(dropped).toBe(1);
    expect(buildContext(items, 25, (t) => t.split(' ').length, 30).ordered).toHaveLength(2);
  });

  it('holds the best passage of each paper that connects the concepts however it ranks', () => {
    const items = [90, 80, 70, 45, 40].map((score, i) => evidence(`e${i}`, `passage ${i} words here`, score));
    const bridging = new Set([items[4]!.paperId]);
    expect(buildContext(items, 12, (t) => t.split(' ').length, 30).ordered.map((e) => e.id)).toEqual(['e0']);
    const { ordered } = buildContext(items, 12, (t) => t.split(' ').length, 30, bridging);
    expect(ordered.map((e) => e.id)).toEqual(['e4']);
    expect(buildContext(items, 1000, (t) => t.split(' ').length, 30, bridging).ordered.map((e) => e.score)).toEqual([
      90, 70, 40, 45, 80,
    ]);
  });

  it('flags a passage reporting no effect against one reporting an effect', () => {
    const a = evidence('a', 'Aspirin reduced infarction risk.', 90, { id: 'p1' });
    const b = evidence('b', 'Aspirin did not reduce infarction risk in women.', 80, { id: 'p2' });
    const c = evidence('c', 'Unrelated text about sleep.', 70, { id: 'p3' });
    const found = findContradictions([a, b, c], (x, y) => (x.id === 'c' || y.id === 'c' ? 0.1 : 0.9));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ a: 'a', b: 'b' });
    // A second passage of the same two papers adds no second flag.
    const a2 = evidence('a2', 'Aspirin lowered infarction rates.', 85, { id: 'p1' });
    const twice = findContradictions([a, a2, b, c], (x, y) => (x.id === 'c' || y.id === 'c' ? 0.1 : 0.9));
    expect(twice).toHaveLength(1);
  });
});

describe('citation verification', () => {
  const passage = evidence(
    'E-1',
    'In a randomised trial, low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent. Bleeding was more frequent.',
    90,
  );
  const other = evidence('E-2', 'Sleep deprivation impairs memory consolidation in healthy adults.', 80, { id: 'p2' });
  const pool = new Map([
    [passage.id, passage],
    [other.id, other],
  ]);
  const labels: Record<string, string> = { E1: 'E-1', E2: 'E-2' };
  const labelOf = (label: string) => labels[label.startsWith('E') ? label : `E${label}`];

  it("holds a model's answer to what an extractive one may quote: no support from a caption not asked about", () => {
    const caption = evidence('E-3', 'Figure 2: Sleep deprivation impairs memory consolidation in healthy adults.', 80, {
      id: 'p3',
    });
    const withCaption = new Map([[caption.id, caption]]);
    const answer = 'Sleep deprivation impairs memory consolidation in healthy adults [E1].';
    const byCaption = (label: string) => (label === 'E1' || label === '1' ? 'E-3' : undefined);
    const refused = verifyAnswer(
      answer,
      withCaption,
      byCaption,
      0.6,
      undefined,
      quotableFor('Does sleep deprivation impair memory?'),
    );
    expect(refused.sentences).toEqual([]);
    expect(refused.dropped[0]!.reason).toMatch(/caption/);
    const asked = verifyAnswer(answer, withCaption, byCaption, 0.6, undefined, quotableFor('What does Figure 2 show?'));
    expect(asked.sentences).toHaveLength(1);
  });

  it('aligns quotes exactly, after normalisation, and by overlap', () => {
    expect(
      alignQuote(
        'low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent',
        passage.text,
        undefined,
      ),
    ).toMatchObject({ support: 1, method: 'exact' });
    expect(
      alignQuote('Low dose aspirin reduced the risk of a first myocardial infarction', passage.text, undefined).method,
    ).toBe('normalised');
    expect(alignQuote('Sleep loss hurts memory', passage.text, 0.1).support).toBeLessThan(0.6);
  });

  it('keeps supported sentences, drops unsupported ones, strips unknown markers, numbers by first use', () => {
    const answer =
      'Sleep deprivation impairs memory consolidation in healthy adults [E2]. Low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent [E1][E9]. Aspirin cures all cancers completely [E1]. Statins prevent strokes in everyone.';
    const result = verifyAnswer(answer, pool, labelOf, 0.6);
    expect(result.sentences.map((s) => s.citations.map((c) => c.marker))).toEqual([[1], [2]]);
    expect(result.bibliography.map((b) => b.evidenceId)).toEqual(['E-2', 'E-1']);
    expect(result.strippedMarkers).toEqual(['[E9]']);
    expect(result.dropped.map((d) => d.text)).toEqual([
      'Aspirin cures all cancers completely.',
      'Statins prevent strokes in everyone.',
    ]);
    const citation = result.sentences[1]!.citations[0]!;
    expect(passage.text.slice(citation.start - passage.start, citation.end - passage.start)).toBe(citation.quote);
    expect(result.answer).toBe(
      'Sleep deprivation impairs memory consolidation in healthy adults [1]. Low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent [2].',
    );
  });

  it("drops what a small model writes that is no finding: a source's title copied from the evidence list, a repeat", () => {
    // SmolLM2-135M answered a question by listing the evidence headers, "(title, year) [n]", each several times; the
    // title stands in the passage, so alignment alone would have verified them.
    const titled = evidence(
      'E-1',
      'Low-dose aspirin and the prevention of myocardial infarction. In a randomised trial, low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent.',
      90,
      { title: 'Low-dose aspirin and the prevention of myocardial infarction', year: 1995 },
    );
    const answer =
      'The evidence provided is:\n\n(Low-dose aspirin and the prevention of myocardial infarction, 1995) [E1].\nLow-dose aspirin reduced the risk of a first myocardial infarction by 44 percent [E1].\n\nThe evidence provided is:\n\nLow-dose aspirin reduced the risk of a first myocardial infarction by 44 percent [E1].';
    const result = verifyAnswer(answer, new Map([[titled.id, titled]]), labelOf, 0.6);
    expect(result.sentences.map((s) => [s.text, s.citations.length])).toEqual([
      ['The evidence provided is:', 0],
      ['Low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent.', 1],
    ]);
    expect(result.dropped).toEqual([
      {
        text: '(Low-dose aspirin and the prevention of myocardial infarction, 1995).',
        reason: "it names a source's title and states no finding",
      },
      { text: 'The evidence provided is:', reason: 'it repeats an earlier sentence' },
      {
        text: 'Low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent.',
        reason: 'it repeats an earlier sentence',
      },
    ]);
    // A header copied with a word changed is still a header; a title restated as a sentence, or a finding using the
    // title's words and more, is a claim and judged as one.
    expect(namesOnlyASource('Low-dose aspirin and the prevention of heart infarction (1995)', [titled])).toBe(true);
    expect(namesOnlyASource('Low-dose aspirin and the prevention of myocardial infarction.', [titled])).toBe(false);
    expect(namesOnlyASource('In 1995, low-dose aspirin cut myocardial infarction by 44 percent', [titled])).toBe(false);
  });

  it('parses JSON from model output, or refuses it', () => {
    expect(parseJsonObject('```json\n{"route": "trend"}\n```')).toEqual({ route: 'trend' });
    expect(() => parseJsonObject('route: trend')).toThrow(/not a JSON object/);
  });
});

describe('the yes or no of a direction question', () => {
  it('answers whether a literature moved the way the question asks, from the earlier window to the later one', () => {
    expect(directionAnswer('Did glaucoma publications fall from the 1980s to the 1990s?', [3, 40])).toBe('No — ');
    expect(directionAnswer('Did glaucoma publications fall from the 1980s to the 1990s?', [40, 3])).toBe('Yes — ');
    expect(directionAnswer('Has glaucoma output grown from 2005-2009 to 2010-2014?', [10, 25])).toBe('Yes — ');
    expect(directionAnswer('Has glaucoma output grown from 2005-2009 to 2010-2014?', [25, 25])).toBe('No — ');
    // More or fewer in the first window named than in the second, whichever is earlier.
    expect(directionAnswer('Was there more glaucoma research in 2016-2018 than in 2019-2021?', [100, 133])).toBe(
      'No — ',
    );
    expect(
      directionAnswer('Were fewer glaucoma papers published in 2019-2021 than in 2016-2018?', [133, 100], true),
    ).toBe('No — ');
    expect(directionAnswer('Did glaucoma papers fall from 2019-2021 to 2016-2018?', [133, 100], true)).toBe('No — ');
    // Which of two, not whether: no yes or no.
    expect(directionAnswer('Were there more glaucoma papers in the 2000s or in the 2010s?', [3, 40])).toBe('');
    expect(directionAnswer('Compare glaucoma output in 2005-2009 with 2010-2014.', [3, 40])).toBe('');
  });
});
