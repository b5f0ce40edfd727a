import { aggregateChunks, weightedRrf } from '../../src/retrieval/fusion';
import { buildLuceneQuery } from '../../src/retrieval/query-text';
import { contentTerms } from '../../src/text';
import { feedbackTerms, InMemoryDocumentFrequencies, validateTerms } from '../../src/retrieval/expansion';
import { mmr, personalisedPageRank } from '../../src/retrieval/rerank';
import { CitegraphError } from '../../src/errors';

describe('weighted reciprocal rank fusion', () => {
  it('computes Σ w / (K + rank)', () => {
    const fused = weightedRrf(
      [
        { name: 'a', weight: 1, ids: ['x', 'y'] },
        { name: 'b', weight: 0.5, ids: ['y', 'z'] },
      ],
      60,
    );
    expect(fused.map((item) => item.id)).toEqual(['y', 'x', 'z']);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 0.5 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 12);
    expect(fused[2]!.score).toBeCloseTo(0.5 / 62, 12);
    expect(fused[0]!.ranks).toEqual({ a: { rank: 2, score: undefined }, b: { rank: 1, score: undefined } });
  });

  it('breaks ties by id and counts a repeated id once', () => {
    const fused = weightedRrf(
      [
        { name: 'a', weight: 1, ids: ['q', 'p', 'q'] },
        { name: 'b', weight: 1, ids: ['p', 'q'] },
      ],
      10,
    );
    expect(fused.map((item) => [item.id, item.score])).toEqual([
      ['p', 1 / 12 + 1 / 11],
      ['q', 1 / 11 + 1 / 12],
    ]);
  });

  it('aggregates chunks to papers by max or sum', () => {
    const hits = [
      { paperId: 'p1', chunkId: 'p1#0', score: 0.5 },
      { paperId: 'p2', chunkId: 'p2#0', score: 0.7 },
      { paperId: 'p1', chunkId: 'p1#1', score: 0.4 },
    ];
    expect(aggregateChunks(hits, 'max').map((p) => [p.paperId, p.score])).toEqual([
      ['p2', 0.7],
      ['p1', 0.5],
    ]);
    const sum = aggregateChunks(hits, 'sum');
    expect(sum[0]!.paperId).toBe('p1');
    expect(sum[0]!.score).toBeCloseTo(0.9, 10);
    expect(sum[0]!.chunkIds).toEqual(['p1#0', 'p1#1']);
  });
});

describe('Lucene query building', () => {
  it.each([
    ['title:x AND (', 'title'],
    ['NOT secret OR AND', 'secret'],
    ['*', null],
    ['"', null],
    ['\\', null],
    ['a:b OR c~2 ^3 [1 TO 5] {x} /re/ -neg +must && || !', '2 3 1 5 re neg'],
    ['IL-6 signalling in CD4+ T-cells', 'il 6 signalling cd4 cells'],
  ])('escapes %j by keeping only terms', (input, expected) => {
    if (expected === null) {
      expect(() => buildLuceneQuery(input)).toThrow(CitegraphError);
    } else {
      expect(buildLuceneQuery(input)).toBe(expected);
    }
  });

  it('rejects empty and all-stopword queries with BAD_USER_INPUT', () => {
    expect(() => buildLuceneQuery('   ')).toThrow(/empty/);
    try {
      buildLuceneQuery('what is the of and');
      throw new Error('no error');
    } catch (error) {
      expect((error as CitegraphError).code).toBe('BAD_USER_INPUT');
    }
  });

  it('caps very long input at 64 terms', () => {
    const query = buildLuceneQuery(Array.from({ length: 5000 }, (_, i) => `term${i}`).join(' '));
    expect(query.split(' ')).toHaveLength(64);
  });

  it('adds expansion terms as a weighted clause', () => {
    expect(buildLuceneQuery('estrogen heart', ['cardiovascular', 'heart', 'hormone'], 0.25)).toBe(
      '(estrogen heart) (cardiovascular hormone)^0.25',
    );
    expect(contentTerms('The effect of HRT on CHD')).toEqual(['effect', 'hrt', 'chd']);
  });
});

describe('query expansion', () => {
  const frequencies = new InMemoryDocumentFrequencies();
  [
    'estrogen heart disease risk',
    'estrogen hormone therapy heart',
    'hormone replacement therapy breast cancer',
    'statin cholesterol',
    'heart failure trial',
  ].forEach((text) => frequencies.add(text));

  it('keeps terms with 0 < df < τ·|corpus|', () => {
    expect(validateTerms(['hormone', 'unknownterm', 'heart', 'statin'], frequencies, 0.5)).toEqual([
      'hormone',
      'statin',
    ]);
  });

  it('proposes feedback terms shared by the top documents, not the query terms', () => {
    const terms = feedbackTerms(
      'estrogen',
      ['estrogen hormone therapy heart', 'hormone replacement therapy breast cancer'],
      frequencies,
      3,
    );
    expect(terms).toEqual(expect.arrayContaining(['hormone', 'therapy']));
    expect(terms).not.toContain('estrogen');
  });
});

describe('reranking', () => {
  const v = (...xs: number[]) => Float32Array.from(xs);
  const vectors = new Map([
    ['a', v(1, 0, 0)],
    ['a2', v(0.99, 0.1, 0)],
    ['b', v(0, 1, 0)],
    ['c', v(0, 0, 1)],
  ]);

  it('MMR demotes a near-duplicate of what is already picked', () => {
    const items = [
      { id: 'a', score: 1 },
      { id: 'a2', score: 0.95 },
      { id: 'b', score: 0.9 },
      { id: 'c', score: 0.1 },
    ];
    expect(mmr(items, vectors, 1, 4)).toEqual(['a', 'a2', 'b', 'c']);
    expect(mmr(items, vectors, 0.5, 4).slice(0, 2)).toEqual(['a', 'b']);
  });

  it('personalised PageRank favours what resembles other strong candidates', () => {
    const pr = personalisedPageRank(
      ['a', 'a2', 'b'],
      vectors,
      new Map([
        ['a', 0.5],
        ['a2', 0.5],
        ['b', 0.5],
      ]),
      { threshold: 0.5, damping: 0.85 },
    );
    expect(pr.get('a')!).toBeGreaterThan(0);
    const total = [...pr.values()].reduce((sum, x) => sum + x, 0);
    expect(total).toBeCloseTo(1, 6);
    // a and a2 reinforce each other; b has no neighbour above the threshold and keeps only its teleport share.
    expect(pr.get('b')!).toBeLessThan(pr.get('a')!);
  });
});

describe('corpus-side enrichment', () => {
  it('takes words that citing titles share and the paper lacks, validated by document frequency', () => {
    const { enrichmentTerms } =
      require('../../src/retrieval/enrichment') as typeof import('../../src/retrieval/enrichment');
    const frequencies = new InMemoryDocumentFrequencies();
    [
      'aspirin infarction trial',
      'heart attack antiplatelet',
      'heart attack statins',
      'platelet review heart',
      'sleep memory',
      'protein folding',
      'cells',
      'memory',
    ].forEach((text) => frequencies.add(text));
    const citing = [
      'Heart attack after stopping antiplatelet drugs',
      'Heart attack risk and statins',
      'Review of aspirin',
      'Quantum gravity',
    ];
    expect(
      enrichmentTerms('Aspirin prevents myocardial infarction', citing, frequencies, {
        tau: 0.5,
        maxTerms: 5,
        minSupport: 2,
      }),
    ).toEqual(['attack', 'heart']);
    // "heart" is too common for τ = 0.3 (df 3 of 8 ≥ 2.4); terms the paper already has never count.
    expect(
      enrichmentTerms('Aspirin prevents myocardial infarction', citing, frequencies, {
        tau: 0.3,
        maxTerms: 5,
        minSupport: 2,
      }),
    ).toEqual(['attack']);
    expect(enrichmentTerms('heart attack', citing, frequencies, { tau: 0.5, maxTerms: 5, minSupport: 2 })).toEqual([]);
  });
});
