import { RequestContext } from '../../src/request-context';
import { type Corpus, scopedSearch } from '../../src/retrieval/corpus';
import { emptyTrace, type SearchOptions, type SearchResponse } from '../../src/retrieval/search-types';
import { corporaOf, DocumentsCorpus } from '../../src/sets/documents-corpus';
import { type SetChunkRow, SetCorpus, type SetDocumentRow } from '../../src/sets/set-corpus';

const document = (id: string, title: string | null): SetDocumentRow => ({
  id,
  setId: 'ds_x',
  documentName: `${id}.md`,
  documentFormat: 'markdown',
  title,
  year: null,
  doi: null,
  documentAuthors: ['A. Author'],
  pageCount: null,
  abstract: null,
});

const chunk = (id: string, documentId: string, text: string, embedding: number[], ordinal = 0): SetChunkRow => ({
  id,
  documentId,
  text,
  start: ordinal * 100,
  end: ordinal * 100 + text.length,
  ordinal,
  section: 'Results',
  sectionKind: 'results',
  pageStart: ordinal + 1,
  pageEnd: ordinal + 1,
  embedding,
});

function corpus(): SetCorpus {
  const documents = new Map([
    ['d1', document('d1', null)],
    ['d2', document('d2', null)],
    ['d3', document('d3', 'Untitled notes')],
  ]);
  return new SetCorpus(['ds_x'], documents, [
    chunk('d1#t0', 'd1', 'pravastatin lowered cholesterol', [1, 0, 0]),
    chunk('d1#t1', 'd1', 'the weather was mild', [0, 1, 0], 1),
    chunk('d2#t0', 'd2', 'estrogen therapy in women', [0, 0, 1]),
    chunk('d3#t0', 'd3', 'cholesterol cholesterol diet', [0.6, 0.8, 0]),
  ]);
}

describe('set corpus ranking', () => {
  it('scores BM25 by hand: k1 1.2, b 0.75, idf log(1 + (N − df + 0.5)/(df + 0.5)), a document by its best chunk', () => {
    const hits = corpus().rank(
      'pravastatin',
      null,
      { sparse: true, dense: false, sparseWeight: 1, denseWeight: 0, rrfK: 60 },
      10,
    );
    expect(hits.map((hit) => hit.documentId)).toEqual(['d1']);
    // Chunk lengths in content terms (stopwords out; a chunk is indexed with its document's title): 3, 2, 3 and 5.
    const lengths = [3, 2, 3, 5];
    const avg = lengths.reduce((a, b) => a + b) / lengths.length;
    const idf = Math.log(1 + (4 - 1 + 0.5) / (1 + 0.5));
    const bm25 = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 3) / avg));
    expect(hits[0]!.sparse!.score).toBeCloseTo(bm25, 10);
    expect(hits[0]!.score).toBeCloseTo(1 / 61, 12);
  });

  it('ranks by term frequency and rarity: two mentions beat one in a chunk of like length', () => {
    const hits = corpus().rank(
      'cholesterol',
      null,
      { sparse: true, dense: false, sparseWeight: 1, denseWeight: 0, rrfK: 60 },
      10,
    );
    expect(hits.map((hit) => hit.documentId)).toEqual(['d3', 'd1']);
  });

  it('fuses BM25 and cosine ranks by weighted reciprocal rank fusion', () => {
    const options = { sparse: true, dense: true, sparseWeight: 0.5, denseWeight: 0.5, rrfK: 60 };
    const hits = corpus().rank('pravastatin', Float32Array.from([1, 0, 0]), options, 10);
    expect(hits[0]).toMatchObject({ documentId: 'd1', sparse: { rank: 1 }, dense: { rank: 1, score: 1 } });
    expect(hits[0]!.score).toBeCloseTo(0.5 / 61 + 0.5 / 61, 12);
    // d3's best chunk has cosine 0.6 (dense rank 2), d2 none above 0 (rank 3); neither has the term.
    expect(hits.slice(1).map((hit) => [hit.documentId, hit.sparse, hit.dense?.rank])).toEqual([
      ['d3', null, 2],
      ['d2', null, 3],
    ]);
  });

  it('gives each document its best passages for a vector, scored as Neo4j reports cosine (0–1)', () => {
    const passages = corpus().passages(['d1'], Float32Array.from([0, 1, 0]), 1);
    expect([...passages.keys()]).toEqual(['d1']);
    expect(passages.get('d1')).toEqual([
      expect.objectContaining({ chunkId: 'd1#t1', field: 'text', pageStart: 2, section: 'Results', score: 1 }),
    ]);
    const both = corpus()
      .passages(['d1'], Float32Array.from([0, 1, 0]), 5)
      .get('d1')!;
    expect(both.map((p) => [p.chunkId, p.score])).toEqual([
      ['d1#t1', 1],
      ['d1#t0', 0.5],
    ]);
  });

  it('shows a set document as a paper of source document-set, named by its title or file name', () => {
    const c = corpus();
    expect(c.paperRow('d1')).toMatchObject({ id: 'd1', title: 'd1.md', source: 'document-set', collections: [] });
    expect(c.evidencePaper('d3')).toMatchObject({ title: 'Untitled notes', authors: 1, source: 'document-set' });
    expect(c.paperRow('elsewhere')).toBeNull();
  });
});

describe('one scoped search over the shared graph and private documents', () => {
  const defaults: SearchOptions = {
    sparse: true,
    dense: true,
    sparseWeight: 0.5,
    denseWeight: 0.5,
    rrfK: 60,
    aggregation: 'max',
    candidates: 100,
    passages: 1,
    expansion: false,
    expansionTerms: 8,
    expansionTau: 0.1,
  } as SearchOptions;
  const ctx = RequestContext.create({ llm: null });
  const documents = new DocumentsCorpus(corpus(), () => Promise.resolve(Float32Array.from([1, 0, 0])));
  /** A stand-in for the graph: two papers with fixed fused scores, one above and one below the documents' best. */
  const graph: Corpus = {
    kind: 'graph',
    search: (_ctx, query, first, _filter, options): Promise<SearchResponse> => {
      const trace = emptyTrace(query, options);
      trace.timings.sparseMs = 2;
      trace.counts = { sparse: 2, dense: 2, companion: 0, splade: 0, fused: 2 };
      const paper = (id: string) => ({ id, title: id }) as SearchResponse['results'][number]['paper'];
      const hit = (id: string, score: number, rank: number) =>
        ({ paper: paper(id), rank, score, passages: [], trace: {} }) as unknown as SearchResponse['results'][number];
      return Promise.resolve({ results: [hit('W1', 0.02, 1), hit('W2', 0.001, 2)].slice(0, first), trace });
    },
    passages: () => Promise.resolve(new Map()),
    evidencePapers: () => Promise.resolve(new Map()),
  };

  it('searches the documents alone, the graph alone, or both in one ranking', async () => {
    expect(corporaOf(null, graph)).toEqual([graph]);
    expect(corporaOf({ corpus: documents, withSharedGraph: false }, graph)).toEqual([documents]);
    expect(corporaOf({ corpus: documents, withSharedGraph: true }, graph)).toEqual([graph, documents]);
    const alone = await scopedSearch([documents], defaults, ctx, 'pravastatin', 10);
    expect(alone.results.map((r) => r.paper.id)).toEqual(['d1', 'd3', 'd2']);
    expect(alone.results[0]!.passages[0]!.text).toBe('pravastatin lowered cholesterol');
    expect(alone.trace.counts).toEqual({ sparse: 1, dense: 3, companion: 0, splade: 0, fused: 3 });
    const both = await scopedSearch([graph, documents], defaults, ctx, 'pravastatin', 4);
    // d1 (0.5/61 + 0.5/61 ≈ 0.0164) falls between W1 (0.02) and W2 (0.001); ranks are renumbered; four kept.
    expect(both.results.map((r) => [r.paper.id, r.rank])).toEqual([
      ['W1', 1],
      ['d1', 2],
      ['d3', 3],
      ['d2', 4],
    ]);
    // The graph's trace, with the documents' counts and time added.
    expect(both.trace.counts).toEqual({ sparse: 3, dense: 5, companion: 0, splade: 0, fused: 5 });
    expect(Object.keys(both.trace.timings).sort()).toEqual(['documentSetMs', 'sparseMs']);
    await expect(scopedSearch([graph, documents], defaults, ctx, '?!', 4)).rejects.toThrow('the query is empty');
    await expect(scopedSearch([documents], defaults, ctx, '...', 4)).rejects.toThrow('the query is empty');
  });

  it('gives citation metadata for the documents it holds, and none for others', async () => {
    const papers = await documents.evidencePapers(['d1', 'nope']);
    expect([...papers.keys()]).toEqual(['d1']);
    expect(documents.size).toBe(3);
  });
});
