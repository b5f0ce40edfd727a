import { describeQuery, renderPortfolio } from '../../src/external/portfolios';
import {
  consensusOf,
  questionPortfolios,
  rescoreFinds,
  spellingVariants,
  truncation,
} from '../../src/pipeline/portfolios';

const rendered = (question: string) =>
  Object.fromEntries(
    questionPortfolios(question).flatMap((portfolio) =>
      (['openalex', 's2', 'crossref'] as const).map((provider) => {
        const query = renderPortfolio(provider, portfolio);
        return [`${portfolio.name}@${provider}`, query ? describeQuery(query) : null];
      }),
    ),
  );

describe('search portfolios', () => {
  it('asks each provider in its own syntax: concepts required, their other names as alternatives', () => {
    const q = rendered('Does emicizumab prophylaxis reduce bleeding in haemophilia A?');
    // (The concept reader takes "bleeding" after a verb of effect for a participle: the outcome is not required.)
    expect(q['primary@openalex']).toBe('(emicizumab AND prophylaxis) AND (haemophilia OR hemophilia)');
    expect(q['primary@s2']).toBe('bulk: (emicizumab + prophylaxis) + (haemophilia | hemophilia)');
    expect(q['primary@crossref']).toBe('emicizumab prophylaxis haemophilia hemophilia');
    expect(q['field@openalex']).toMatch(/^title_abstract: \(emicizumab AND prophylaxis\)/);
    expect(q['field@crossref']).toMatch(/^bibliographic: emicizumab/);
    // Only Semantic Scholar truncates, and its relevance search has no field restriction.
    expect(q['wildcard@s2']).toBe('bulk: (emicizumab* + prophylaxi*) + (haemophili* | hemophilia*)');
    expect(q['wildcard@openalex']).toBeNull();
    expect(q['wildcard@crossref']).toBeNull();
    expect(q['field@s2']).toBeNull();
    expect(q['general@crossref']).toBe('Does emicizumab prophylaxis reduce bleeding in haemophilia A?');
  });

  it('reads listed concepts as alternatives of one requirement, and the acronyms a question defines', () => {
    expect(rendered('novel object recognition in rats or mice')['primary@openalex']).toBe(
      '(novel AND object AND recognition) AND (rats OR mice)',
    );
    // Two subjects joined by "and" are asked about together.
    expect(rendered('hair glucocorticoids and obesity')['primary@openalex']).toBe(
      '(hair AND glucocorticoids) AND obesity',
    );
    expect(rendered('infliximab, etanercept or adalimumab switching')['primary@s2']).toMatch(
      /^bulk: \(infliximab \| etanercept \| adalimumab\)/,
    );
    const acronym = questionPortfolios('Is dialectical behavior therapy (DBT) effective for self-harm?')[0]!;
    expect(acronym.groups[0]).toEqual(expect.arrayContaining(['dialectical behavior therapy', 'dbt']));
    expect(acronym.groups[0]).toContain('dialectical behaviour therapy');
  });

  it('leaves out noise words, in the queries and in the stems', () => {
    const [portfolio] = questionPortfolios(
      'What is the effect of hair cortisol on obesity, blood pressure and insulin resistance in older adults?',
    );
    // "obesity, blood pressure and insulin resistance" is one requirement: any of the three.
    expect(portfolio!.groups).toEqual([['hair cortisol'], ['obesity', 'blood', 'insulin resistance']]);
    expect(portfolio!.stems).toEqual([['hair cortisol'], ['obes', 'blood', 'insulin resistance']]);
  });

  it('spells words both ways and truncates to stems', () => {
    expect(spellingVariants('paediatric tumour behaviour')).toEqual(['pediatric tumor behavior']);
    expect(spellingVariants('oestrogen')).toEqual(['estrogen']);
    expect(spellingVariants('randomized trial')).toEqual(['randomised trial']);
    expect(spellingVariants('revised criteria')).toEqual([]);
    expect(spellingVariants('factor')).toEqual([]);
    expect(truncation('obesity')).toBe('obes');
    expect(truncation('spasticity')).toBe('spastic');
    expect(truncation('mice')).toBe('mice');
  });

  it('rescores by similarity; the searches that agree count once each, at their best rank', () => {
    const hits = (...list: Array<[string, string, number]>) =>
      list.map(([portfolio, source, rank]) => ({ portfolio, source, rank }));
    expect(consensusOf(hits(['general', 'openalex', 1], ['general', 'openalex', 5]))).toBeCloseTo(10 / 11);
    expect(consensusOf(hits(['general', 'openalex', 1], ['primary', 's2', 10]))).toBeCloseTo(10 / 11 + 0.5);
    const works = [
      { id: 'a', hits: hits(['general', 'openalex', 1], ['primary', 's2', 1], ['field', 'openalex', 1]) },
      { id: 'b', hits: hits(['general', 'crossref', 9]) },
      { id: 'c', hits: hits(['general', 's2', 2]) },
    ];
    const bySimilarity = rescoreFinds(works, [0.5, 0.6, 0.5]).map((f) => f.work.id);
    // b is most similar; a and c tie on similarity and a, found by three searches, goes first.
    expect(bySimilarity).toEqual(['b', 'a', 'c']);
    expect(rescoreFinds(works, [0.5, 0.6, 0.5], 0.1).map((f) => f.work.id)).toEqual(['a', 'b', 'c']);
  });
});
