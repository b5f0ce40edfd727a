import { readFileSync } from 'node:fs';
import { createClient } from 'graphql-sse';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { serveGraphQL } from '../../src/api/server';
import { postGraphql } from '../helpers/graphql-client';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

/**
 * A related-work report on a SYNERGY review's subject (Donners 2021: emicizumab in haemophilia A), over GraphQL, with
 * every quote checked by independent slicing of the stored text and against the raw OpenAlex record, and the LaTeX
 * and BibTeX files checked against each other.
 */

const REVIEW = 'Donners_2021';
const FILE = path.join(SHARED_DIR, 'data/synergy/works', `${REVIEW}.jsonl.gz`);

interface RawWork {
  id: string;
  publication_year: number;
  title?: string | null;
  abstract_inverted_index?: Record<string, number[]> | null;
}

const raw = new Map<string, RawWork>();
for (const line of gunzipSync(readFileSync(FILE)).toString('utf8').split('\n')) {
  if (line.trim()) {
    const work = JSON.parse(line) as RawWork;
    raw.set(work.id.replace('https://openalex.org/', ''), work);
  }
}

/** The words of a raw abstract in order, read from OpenAlex's inverted index here, not by the product's code. */
function rawWords(work: RawWork): string {
  const words: string[] = [];
  for (const [word, positions] of Object.entries(work.abstract_inverted_index ?? {})) {
    for (const position of positions) words[position] = word;
  }
  return words.join(' ');
}
const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const { app } = createTestContext();
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<any> =>
  postGraphql(url, query, variables);

beforeAll(async () => {
  await removeCollections(app, [REVIEW]);
  await app.ingest.ingestFiles([FILE], { embed: 'now', progress: false });
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
});

afterAll(async () => {
  await stop();
  await removeCollections(app, [REVIEW]);
  await app.close();
});

const REPORT = `query ($subject: String!, $options: ReportOptions) {
  report(subject: $subject, options: $options) {
    subject topic title definition papers covered cited generator mainPath
    leftOut { reason papers }
    dropped { section text reason }
    bibliography { marker paperId title year }
    sections {
      kind title
      front { cluster size terms firstYear lastYear medianYear closeness papers arose mainPathPapers burst { start end strength } }
      sentences { text kind citations { marker paperId chunkId quote field start end supportScore method } }
    }
  }
}`;

describe('a related-work report', () => {
  let report: any;
  beforeAll(async () => {
    const response = await gql(REPORT, { subject: 'emicizumab', options: { collections: [REVIEW] } });
    expect(response.errors).toBeUndefined();
    report = response.data.report;
  });

  it('has an introduction, one section per research front in the order the fronts arose, and a conclusion', () => {
    const kinds = report.sections.map((s: any) => s.kind);
    expect(kinds[0]).toBe('introduction');
    expect(kinds[kinds.length - 1]).toBe('conclusion');
    const fronts = report.sections.filter((s: any) => s.kind === 'front');
    expect(fronts.length).toBeGreaterThanOrEqual(2);
    expect(fronts.length).toBeLessThanOrEqual(5);
    // A front arose when its share of the papers first burst, or in its median year when it never did.
    const arose = fronts.map((s: any) => s.front.arose);
    expect(arose).toEqual([...arose].sort((a, b) => a - b));
    for (const { front } of fronts) {
      expect(front.arose).toBe(front.burst ? front.burst.start : front.medianYear);
      if (front.burst) {
        expect(front.burst.end).toBeGreaterThanOrEqual(front.burst.start);
        expect(front.burst.strength).toBeGreaterThan(0);
      }
    }
    // The main path runs oldest first through papers of the review; each front counts the ones it holds.
    expect(report.mainPath.length).toBeGreaterThanOrEqual(2);
    const pathYears = report.mainPath.map((id: string) => raw.get(id)!.publication_year);
    expect(pathYears).toEqual([...pathYears].sort((a, b) => a - b));
    for (const { front } of fronts) {
      expect(front.mainPathPapers).toBe(front.papers.filter((id: string) => report.mainPath.includes(id)).length);
    }
    expect(report.sections[0].sentences.map((s: any) => s.text).join(' ')).toContain(
      `The main path of their citation network (the links most search paths run through) passes ${report.mainPath.length} papers`,
    );
    for (const section of fronts) {
      // Every front's papers are papers of the review, and it holds at least three; its years are theirs.
      expect(section.front.size).toBeGreaterThanOrEqual(3);
      expect(section.front.papers).toHaveLength(section.front.size);
      const years = section.front.papers.map((id: string) => raw.get(id)!.publication_year);
      expect(section.front.firstYear).toBe(Math.min(...years));
      expect(section.front.lastYear).toBe(Math.max(...years));
      // Its heading is its distinctive terms; its first sentence is its figures, then quotes.
      expect(section.title.toLowerCase()).toContain(section.front.terms[0]);
      expect(section.sentences[0].kind).toBe('computed');
      expect(section.sentences[0].text).toMatch(new RegExp(`^${section.front.size} papers \\(`));
    }
    expect(report.papers).toBeGreaterThan(0);
    expect(report.covered).toBeLessThanOrEqual(report.papers);
    expect(report.sections[0].sentences[0].text).toContain(`the ${report.papers} papers of the graph on "emicizumab"`);
    // What is left out is counted: the set's papers are those covered and those left out for not being in a front.
    const outside = report.leftOut.find((l: any) => /share no reference/.test(l.reason));
    expect(report.covered + (outside?.papers ?? 0)).toBe(report.papers);
  });

  it('quotes only what slices exactly from the stored text, and from the raw record', async () => {
    const cited = report.sections.flatMap((s: any) => s.sentences).filter((s: any) => s.kind === 'cited');
    expect(cited.length).toBeGreaterThanOrEqual(3);
    const citations = report.sections.flatMap((s: any) => s.sentences.flatMap((x: any) => x.citations));
    const ids = [...new Set(citations.map((c: any) => c.paperId))] as string[];
    const stored = await gql(`{ ${ids.map((id, i) => `p${i}: paper(id: "${id}") { id title abstract }`).join(' ')} }`);
    expect(stored.errors).toBeUndefined();
    const text = new Map(Object.values(stored.data).map((paper: any) => [paper.id, paper]));
    for (const citation of citations) {
      const paper: any = text.get(citation.paperId);
      expect(paper[citation.field].slice(citation.start, citation.end)).toBe(citation.quote);
      const source =
        citation.field === 'title' ? raw.get(citation.paperId)!.title! : rawWords(raw.get(citation.paperId)!);
      expect(normalise(source)).toContain(normalise(citation.quote));
    }
    // A quoted sentence says what its quote says; the bibliography numbers each cited paper once, in order of use.
    for (const sentence of cited) {
      expect(normalise(sentence.text)).toContain(normalise(sentence.citations[0].quote).slice(0, 60));
    }
    expect(report.bibliography.map((b: any) => b.marker)).toEqual(
      report.bibliography.map((_: unknown, i: number) => i + 1),
    );
    expect(new Set(citations.map((c: any) => c.paperId))).toEqual(
      new Set(report.bibliography.map((b: any) => b.paperId)),
    );
    expect(report.cited).toBe(report.bibliography.length);
  });

  it('exports Markdown, and LaTeX whose every citation key is an entry of its BibTeX file', async () => {
    const file = (format: string) =>
      gql(
        `query ($format: ReportFormat!) { reportFile(subject: "emicizumab", options: { collections: ["${REVIEW}"] }, format: $format) { format mediaType fileName content } }`,
        { format },
      ).then((response) => {
        expect(response.errors).toBeUndefined();
        return response.data.reportFile;
      });
    const [markdown, latex, bibtex] = await Promise.all([file('MARKDOWN'), file('LATEX'), file('BIBTEX')]);
    expect(markdown.fileName).toBe('citegraph-report.md');
    const headings = [...markdown.content.matchAll(/^## (.+)$/gm)].map((m: RegExpMatchArray) => m[1]);
    expect(headings).toEqual([...report.sections.map((s: any) => s.title), 'References']);
    const references = [...markdown.content.matchAll(/^(\d+)\. /gm)].map((m: RegExpMatchArray) => Number(m[1]));
    expect(references).toEqual(report.bibliography.map((b: any) => b.marker));
    expect(latex.mediaType).toMatch(/^application\/x-latex/);
    expect(latex.content).toMatch(/^\\documentclass\{article\}/);
    expect(latex.content).toContain('\\bibliography{references}');
    expect((latex.content.match(/\\section\{/g) ?? []).length).toBe(report.sections.length);
    const { Cite } = require('@citation-js/core') as {
      Cite: new (input: string) => { data: Array<{ id: string; title?: string }> };
    };
    require('@citation-js/plugin-bibtex');
    const entries = new Cite(bibtex.content).data;
    expect(entries).toHaveLength(report.bibliography.length);
    const keys = new Set(entries.map((e) => e.id));
    const cited = [...latex.content.matchAll(/\\cite\{([^}]+)\}/g)].flatMap((m: RegExpMatchArray) => m[1]!.split(','));
    expect(cited.length).toBeGreaterThan(0);
    for (const key of cited) expect(keys.has(key)).toBe(true);
    // Every paper of the bibliography is cited somewhere in the text.
    expect(new Set(cited)).toEqual(keys);
  });

  it('streams each section as it is finished, then the same report', async () => {
    const client = createClient({ url: `${url}/stream`, fetchFn: fetch, retryAttempts: 0 });
    const events: any[] = [];
    for await (const message of client.iterate<{ reportStream: any }>({
      query: `subscription ($o: ReportOptions) { reportStream(subject: "emicizumab", options: $o) {
        kind ms section { kind title sentences { text } } report { title sections { title } cited } } }`,
      variables: { o: { collections: [REVIEW] } },
    })) {
      expect(message.errors).toBeUndefined();
      events.push(message.data!.reportStream);
    }
    client.dispose();
    expect(events.map((e) => e.kind)).toEqual([...report.sections.map(() => 'SECTION'), 'REPORT']);
    expect(events.slice(0, -1).map((e) => e.section.title)).toEqual(report.sections.map((s: any) => s.title));
    const ms = events.map((e) => e.ms);
    expect(ms).toEqual([...ms].sort((a, b) => a - b));
    expect(events.at(-1).report.cited).toBe(report.cited);
  });

  it('reads a question for its topic, and reports on a given paper set', async () => {
    const asked = await gql(REPORT, { subject: 'What is known about emicizumab?', options: { collections: [REVIEW] } });
    expect(asked.errors).toBeUndefined();
    expect(asked.data.report.topic).toBe('emicizumab');
    expect(asked.data.report.papers).toBe(report.papers);
    // A reading list: the papers of the report's first two fronts.
    const fronts = report.sections.filter((s: any) => s.kind === 'front').slice(0, 2);
    const list: string[] = fronts.flatMap((s: any) => s.front.papers);
    const given = await gql(REPORT, { subject: 'My reading list', options: { papers: list } });
    expect(given.errors).toBeUndefined();
    const onList = given.data.report;
    expect(onList.topic).toBe(`the ${list.length} papers given`);
    expect(onList.papers).toBe(list.length);
    expect(onList.sections[0].sentences[0].text).toBe(
      `This report covers the ${list.length} papers given, published ${onList.sections[0].sentences[0].text.match(/published (.*)\.$/)[1]}.`,
    );
    for (const section of onList.sections.filter((s: any) => s.kind === 'front')) {
      expect(section.front.papers.every((id: string) => list.includes(id))).toBe(true);
      expect(section.front.closeness).toBe(1);
    }
    expect(onList.bibliography.every((entry: any) => list.includes(entry.paperId))).toBe(true);
    const unknown = await gql(REPORT, { subject: 'My reading list', options: { papers: [list[0], 'W0000000001'] } });
    expect(unknown.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(unknown.errors[0].message).toMatch(/1 of the papers given is not in the graph .*: W0000000001$/);
  });

  it('refuses an unknown collection with the closest, and a subject no paper is on', async () => {
    const misspelt = await gql(REPORT, { subject: 'emicizumab', options: { collections: ['Donners_2012'] } });
    expect(misspelt.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(misspelt.errors[0].message).toMatch(/no collection "Donners_2012"; closest: Donners_2021/);
    const nothing = await gql(REPORT, { subject: 'xylophone tuning', options: { collections: [REVIEW] } });
    expect(nothing.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(nothing.errors[0].message).toMatch(/^no paper of the graph is on "xylophone tuning"/);
    const tooMany = await gql(REPORT, { subject: 'emicizumab', options: { fronts: 50 } });
    expect(tooMany.errors[0].message).toMatch(/fronts must be a whole number from 1 to 10/);
  });
});
