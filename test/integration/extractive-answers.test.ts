import { loadSettings } from '../../src/config/settings';
import type { Evidence, EvidencePaper } from '../../src/domain';
import { OnnxSentenceEmbedder } from '../../src/embedding/embedder';
import { definitionPattern, extractiveAnswer } from '../../src/generation/extractive';
import { verifyAnswer } from '../../src/generation/verify';
import { passagesPerPaper } from '../../src/pipeline/evidence-pool';

let embedder: OnnxSentenceEmbedder;
beforeAll(async () => {
  embedder = await OnnxSentenceEmbedder.load(loadSettings().model);
});
afterAll(() => embedder.close());

function passage(id: string, text: string, score = 80): Evidence {
  const paper: EvidencePaper = {
    id: 'doc',
    title: 'Mozilla',
    year: null,
    doi: null,
    venue: null,
    authors: null,
    source: 'document-set',
    fetchedAt: null,
  };
  return {
    id,
    paperId: 'doc',
    chunkId: id,
    text,
    field: 'text',
    start: 0,
    end: text.length,
    score,
    similarity: 0.5,
    source: 'local',
    foundBy: ['q'],
    paper,
  };
}

// A web article's opening as the HTML reader lays it out: an infobox's rows, then the lead with its reference marks.
const LEAD = [
  'Mozilla',
  'Industry | Open-source software',
  'Founded | February 28, 1998; 18 years ago',
  'Founder | Netscape Communications Corporation',
  'Mozilla is a free-software community, created in 1998 by members of Netscape. The Mozilla community uses, develops and supports Mozilla products, thereby promoting exclusively free software and open standards, with only minor exceptions.[1] The community is supported institutionally by the Mozilla Foundation and its subsidiary, the Mozilla Corporation.[2]',
].join('\n\n');
const HISTORY =
  'Originally, Mozilla aimed to be a technology provider for companies, such as Netscape, who would commercialize their open source code.[10] Mozilla Webmaker is the educational initiative of Mozilla, whose goal is to "help millions of people move from using the web to making the web." Recently, Mozilla\'s activities have expanded to inclu';

describe('extractive answers', () => {
  it('answer "what is …?" with the sentence that defines it first, whole sentences only, no table rows or marks', async () => {
    const evidence = [passage('history', HISTORY, 90), passage('lead', LEAD, 70)];
    const labels = new Map([
      ['history', 'E1'],
      ['lead', 'E2'],
    ]);
    const { answer, chosen } = await extractiveAnswer(
      'What is Mozilla?',
      evidence,
      (e) => labels.get(e.id)!,
      embedder,
      4,
    );
    expect(chosen[0]!.text).toBe('Mozilla is a free-software community, created in 1998 by members of Netscape.');
    for (const { text } of chosen) {
      expect(text).not.toContain(' | '); // no infobox row
      expect(text).not.toMatch(/\[\d+\]/); // no reference mark, which would read as a citation
      expect(text).toMatch(/^[A-Z].*[.!?]["']?$/); // whole sentences: the cut-off "… expanded to inclu" is not one
    }
    // Every sentence verifies against the passage it cites; a quote closing on '."' keeps its mark in its sentence.
    const verified = verifyAnswer(
      answer,
      new Map(evidence.map((e) => [e.id, e])),
      (label) => (label === 'E1' ? 'history' : label === 'E2' ? 'lead' : undefined),
      0.9,
    );
    expect(verified.dropped).toEqual([]);
    expect(verified.sentences).toHaveLength(chosen.length);
    expect(verified.sentences.every((sentence) => sentence.citations.length === 1)).toBe(true);
    expect(verified.answer).not.toMatch(/\s\.\s|^\.|\. \./);
  });

  it('knows a definition from a sentence that merely starts with the subject', () => {
    const pattern = definitionPattern('What is Mozilla?')!;
    expect(pattern.test('Mozilla is a free-software community.')).toBe(true);
    expect(pattern.test('Mozilla (stylised moz://a) is a free-software community.')).toBe(true);
    expect(pattern.test('Mozilla Webmaker is an educational initiative.')).toBe(false);
    expect(pattern.test('Originally, Mozilla aimed to be a provider.')).toBe(false);
    expect(definitionPattern('What are statins?')!.test('Statins, also known as HMG-CoA inhibitors, are drugs.')).toBe(
      true,
    );
    expect(definitionPattern('Does aspirin prevent heart attacks?')).toBeNull();
  });

  it('reads more passages of each paper when a search finds few papers (a private set of one document)', () => {
    expect(passagesPerPaper(1)).toBe(6);
    expect(passagesPerPaper(3)).toBe(4);
    expect(passagesPerPaper(8)).toBe(2);
  });
});
