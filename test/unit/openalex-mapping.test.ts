import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { abstractFromInvertedIndex, mapBeirDocument, mapOpenAlexWork, RecordError } from '../../src/ingest/openalex';
import { cleanTitle, normaliseDoi, shortOpenAlexId } from '../../src/text';
import { SHARED_DIR } from '../helpers/test-database';

function firstSynergyWork(): Record<string, unknown> {
  const lines = gunzipSync(readFileSync(path.join(SHARED_DIR, 'data/synergy/works/Chou_2004.jsonl.gz')))
    .toString('utf8')
    .split('\n');
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('OpenAlex mapping', () => {
  it('rebuilds an abstract from the inverted index in position order', () => {
    expect(abstractFromInvertedIndex({ world: [1], Hello: [0], again: [3], hello: [2] })).toBe(
      'Hello world hello again',
    );
    expect(abstractFromInvertedIndex({})).toBeNull();
    expect(abstractFromInvertedIndex(null)).toBeNull();
    expect(abstractFromInvertedIndex({ bad: ['x', -1] })).toBeNull();
  });

  it('normalises ids', () => {
    expect(shortOpenAlexId('https://openalex.org/W2125158795')).toBe('W2125158795');
    expect(normaliseDoi('https://doi.org/10.1530/EJE.0.1410619')).toBe('10.1530/eje.0.1410619');
    expect(normaliseDoi('not a doi')).toBeNull();
  });

  it('maps a 2023-schema work (host_venue, concepts)', () => {
    const work = mapOpenAlexWork(firstSynergyWork());
    expect(work.id).toBe('W2125158795');
    expect(work.doi).toBe('10.1530/eje.0.1410619');
    expect(work.title).toBe('Pheochromocytoma in Italy: a multicentric retrospective study');
    expect(work.year).toBe(1999);
    expect(work.venue).toMatchObject({ id: 'S4210218062', name: 'European journal of endocrinology' });
    expect(work.topics.find((t) => t.id === 'C71924100')).toMatchObject({
      name: 'Medicine',
      level: 0,
      kind: 'concept',
    });
    expect(work.abstract?.startsWith('To conduct an epidemiological study on pheochromocytoma in Italy.Data')).toBe(
      true,
    );
    expect(work.references.every((ref) => /^W\d+$/.test(ref))).toBe(true);
    expect(work.ids.pmid).toBe('10601965');
    const anonymous = work.authorships.find((a) => a.authorId === null);
    expect(anonymous?.name).toBe('M Mannelli');
    expect(anonymous?.institutions[0]?.id).toBe('I45084792');
    // biblio gives pages only; MeSH descriptors are the keywords, major topics first, each once.
    expect(work).toMatchObject({ volume: null, issue: null, firstPage: '619', lastPage: '624', license: null });
    expect(work.keywords!.slice(0, 3)).toEqual(['Adrenal Gland Neoplasms', 'Pheochromocytoma', 'Adolescent']);
    expect(new Set(work.keywords).size).toBe(work.keywords!.length);
  });

  it('maps a 2025/2026-schema work (primary_location.source, topics)', () => {
    const raw = JSON.parse(readFileSync(path.join(SHARED_DIR, 'fixtures/openalex/entities-2026/work.json'), 'utf8'));
    const work = mapOpenAlexWork(raw);
    expect(work.id).toBe('W2741809807');
    expect(work.venue).toMatchObject({ id: 'S1983995261', name: 'PeerJ', issnL: '2167-8359' });
    expect(work.topics.find((t) => t.id === 'T10102')).toMatchObject({ kind: 'topic', level: 3 });
    expect(work.authorships[0]).toMatchObject({
      authorId: 'A5048491430',
      name: 'Heather Piwowar',
      orcid: '0000-0003-1613-5981',
      position: 'first',
    });
    expect(work.abstract).toBeTruthy();
    expect(work).toMatchObject({ volume: '6', issue: null, firstPage: 'e4375', language: 'en', license: 'cc-by' });
    expect(work.keywords!.slice(0, 3)).toEqual(['Citation', 'License', 'Scholarly communication']);
  });

  it('refuses a record without an id, and a non-object', () => {
    expect(() => mapOpenAlexWork({ title: 'x' })).toThrow(RecordError);
    expect(() => mapOpenAlexWork([1])).toThrow(/not a JSON object/);
  });

  it('drops the markup publishers leave in titles, spacing where a tag stood between words', () => {
    // Titles as the SYNERGY records hold them.
    expect(cleanTitle('Differential Effects of Oral Estrogen<i>versus</i>Oral Estrogen-Androgen')).toBe(
      'Differential Effects of Oral Estrogen versus Oral Estrogen-Androgen',
    );
    expect(cleanTitle('<i>In vivo</i>outcomes of tissue-engineered osteochondral grafts')).toBe(
      'In vivo outcomes of tissue-engineered osteochondral grafts',
    );
    expect(cleanTitle('Etanercept (Enbrel<sup>®</sup>) to the biosimilar')).toBe(
      'Etanercept (Enbrel®) to the biosimilar',
    );
    expect(cleanTitle('the proopiomelanocortin (<i>POMC</i>) gene')).toBe('the proopiomelanocortin (POMC) gene');
    expect(cleanTitle('Mellitus&lt;SUBTITLE&gt;A Randomized Trial')).toBe('Mellitus: A Randomized Trial');
    expect(cleanTitle('Tom &amp; Jerry&#39;s &#x3B1;-cells')).toBe("Tom & Jerry's α-cells");
    expect(cleanTitle('&lt;p&gt;Spotlight on emicizumab&lt;/p&gt;')).toBe('Spotlight on emicizumab');
    // What is not markup stays.
    expect(cleanTitle('a < b and c > d')).toBe('a < b and c > d');
    const work = { ...firstSynergyWork(), title: 'Safety of<scp>rFVII</scp>a dosing' };
    expect(mapOpenAlexWork(work).title).toBe('Safety of rFVII a dosing');
  });

  it('namespaces BEIR ids by collection', () => {
    const doc = mapBeirDocument({ _id: 42, title: 'T', text: 'Body' }, 'scifact');
    expect(doc).toMatchObject({ id: 'scifact:42', title: 'T', abstract: 'Body', source: 'beir:scifact' });
    expect(mapBeirDocument({ _id: '42', title: 'T', text: 'Body' }, 'nfcorpus').id).toBe('nfcorpus:42');
    expect(() => mapBeirDocument({ title: 'x' }, 'c')).toThrow(/no _id/);
  });
});
