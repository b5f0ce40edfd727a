import { DomUtils, parseDocument } from 'htmlparser2';
import { type ExportNetwork, exportNetwork } from '../../src/analytics/network-export';
import { citationSeries } from '../../src/analytics/citation-impact';
import {
  beautyCoefficient,
  bradfordZones,
  cdIndex,
  distinctiveTerms,
  fitLotka,
  kleinbergBursts,
  nameKey,
} from '../../src/analytics/science-of-science';
import { globalMainPath, keyRouteMainPath } from '../../src/analytics/main-path';

describe('science-of-science measures, computed by hand', () => {
  it('CD index: (focal only − both) / all that cite the paper or its references', () => {
    // 3 papers cite only the focal paper, 1 cites it with a reference, 4 cite only its references: (3 − 1) / 8.
    expect(cdIndex({ focalOnly: 3, both: 1, referencesOnly: 4 })).toBe(0.25);
    expect(cdIndex({ focalOnly: 5, both: 0, referencesOnly: 0 })).toBe(1);
    expect(cdIndex({ focalOnly: 0, both: 4, referencesOnly: 0 })).toBe(-1);
    expect(cdIndex({ focalOnly: 0, both: 0, referencesOnly: 0 })).toBeNull();
  });

  it("Lotka: an exact inverse-square distribution fits n = 2 and C = the one-paper authors' share", () => {
    // 64 authors with 1 paper, 16 with 2, 4 with 4, 1 with 8: y = 64 / x².
    const authors = [...Array(64).fill(1), ...Array(16).fill(2), ...Array(4).fill(4), 8];
    const fit = fitLotka(authors);
    expect(fit.distribution).toEqual([
      { papers: 1, authors: 64 },
      { papers: 2, authors: 16 },
      { papers: 4, authors: 4 },
      { papers: 8, authors: 1 },
    ]);
    expect(fit.exponent).toBeCloseTo(2, 10);
    expect(fit.constant).toBeCloseTo(64 / 85, 10);
    expect(fit.authors).toBe(85);
    expect(fitLotka([1, 1, 1]).exponent).toBeNull(); // one class: nothing to fit
  });

  it('Bradford: venues cut where the cumulative papers pass one and two thirds', () => {
    const venues = [
      { id: 'A', papers: 10 },
      { id: 'B', papers: 5 },
      { id: 'C', papers: 3 },
      { id: 'D', papers: 3 },
      { id: 'E', papers: 2 },
      { id: 'F', papers: 2 },
      ...['G', 'H', 'I', 'J', 'K'].map((id) => ({ id, papers: 1 })),
    ];
    const { zones, multipliers } = bradfordZones(venues);
    // 32 papers: A starts at 0 (zone 1); B at 10, C at 15, D at 18 (zone 2, below 2·32/3); E at 21 onwards zone 3.
    expect(zones.map((z) => z.venues.map((v) => v.id).join(''))).toEqual(['A', 'BCD', 'EFGHIJK']);
    expect(zones.map((z) => z.papers)).toEqual([10, 11, 9]);
    expect(multipliers).toEqual([3, 7 / 3]);
  });

  it('Kleinberg: a run of years at six times the base rate is one burst, the quiet years are not', () => {
    const series = Array.from({ length: 12 }, (_, i) => ({
      year: 2000 + i,
      total: 100,
      relevant: i >= 5 && i <= 7 ? 30 : 5,
    }));
    const bursts = kleinbergBursts(series);
    expect(bursts.map((b) => [b.start, b.end])).toEqual([[2005, 2007]]);
    // The strength is what the burst state saves over the base state in those years: positive, and by hand
    // Σ_t [r ln(p1/p0) + (d − r) ln((1 − p1)/(1 − p0))] with p0 = (9·5 + 3·30)/1200, p1 = 2·p0.
    const p0 = 135 / 1200;
    const p1 = 2 * p0;
    const perYear = 30 * Math.log(p1 / p0) + 70 * Math.log((1 - p1) / (1 - p0));
    expect(bursts[0]!.strength).toBeCloseTo(3 * perYear, 8);
    // A flat series has no burst; entering one costs γ·ln(T).
    expect(kleinbergBursts(series.map((p) => ({ ...p, relevant: 10 })))).toEqual([]);
  });

  it('main path: search path counts N⁻(u)·N⁺(v) and the source-to-sink path of largest total', () => {
    // Knowledge flows A→C, B→C, A→D, C→D, C→E, D→F, E→F (each later paper cites the earlier one).
    const papers = [
      { id: 'A', year: 2000 },
      { id: 'B', year: 2000 },
      { id: 'C', year: 2002 },
      { id: 'D', year: 2004 },
      { id: 'E', year: 2004 },
      { id: 'F', year: 2006 },
    ];
    const flows = ['AC', 'BC', 'AD', 'CD', 'CE', 'DF', 'EF'];
    const citations = flows.map(([cited, citing]) => ({ citing: citing!, cited: cited! }));
    // N⁻: A1 B1 C2 D3 E2 F5; N⁺: F1 D1 E1 C2 A3 B2. SPC: AC 2, BC 2, AD 1, CD 2, CE 2, DF 3, EF 2.
    // A→C→D→F and B→C→D→F both total 7; the smaller id wins.
    const path = globalMainPath(papers, [...citations, { citing: 'A', cited: 'F' }]);
    expect(path.papers).toEqual(['A', 'C', 'D', 'F']);
    expect(path.weights).toEqual([2, 2, 3]);
    expect(path.paths).toBe(5);
    expect(path.dropped).toBe(1); // A (2000) citing F (2006) runs against time
    expect(path.droppedCitations).toEqual([{ citing: 'A', cited: 'F', reason: 'LATER_YEAR' }]);
    expect(path.links.map((l) => l.cited + l.citing)).toEqual(['AC', 'CD', 'DF']);
  });

  it('main path: orders papers of one year by publication date before id, and says why each citation is dropped', () => {
    const papers = [
      { id: 'W9', year: 2019, publicationDate: '2019-02-01' },
      { id: 'W1', year: 2019, publicationDate: '2019-06-01' },
      { id: 'W5', year: 2019, publicationDate: '2019-06-01' },
      { id: 'W3', year: 2019, publicationDate: null },
      { id: 'W7', year: null },
    ];
    const cites = (pairs: string[]) =>
      pairs.map((pair) => {
        const [citing, cited] = pair.split('>');
        return { citing: citing!, cited: cited! };
      });
    const path = globalMainPath(
      papers,
      cites(['W1>W9', 'W9>W1', 'W5>W1', 'W1>W5', 'W3>W5', 'W5>W3', 'W7>W3', 'W3>W7']),
    );
    // W1 (June) citing W9 (February) runs forward although W1 < W9 by id: it is kept, and the reverse dropped.
    expect(path.droppedCitations).toEqual([
      { citing: 'W9', cited: 'W1', reason: 'LATER_DATE' },
      { citing: 'W1', cited: 'W5', reason: 'SAME_DATE' },
      // A paper without a date comes after the dated ones of its year; one without a year after every dated one.
      { citing: 'W5', cited: 'W3', reason: 'LATER_DATE' },
      { citing: 'W3', cited: 'W7', reason: 'NO_YEAR' },
    ]);
    expect(path.papers).toEqual(['W9', 'W1', 'W5', 'W3', 'W7']);
  });

  it('key-route main path: the best source-to-sink paths through the links of largest SPC, united', () => {
    const papers = ['A', 'B', 'C', 'D', 'E', 'F'].map((id, i) => ({
      id,
      year: [2000, 2000, 2002, 2004, 2004, 2006][i]!,
    }));
    const flows = ['AC', 'BC', 'AD', 'CD', 'CE', 'DF', 'EF'];
    const citations = flows.map(([cited, citing]) => ({ citing: citing!, cited: cited! }));
    const links = (k: number) =>
      keyRouteMainPath(papers, citations, k).links.map((l) => `${l.cited}${l.citing}${l.weight}`);
    // Key routes by SPC, ties by ids: DF 3, then AC, BC, CD, CE, EF (2 each), AD 1.
    // DF: backward from D the best total is via C (2 + 2) over A (1), and into C via A (tie with B, smaller id).
    expect(links(1)).toEqual(['AC2', 'CD2', 'DF3']);
    expect(links(2)).toEqual(['AC2', 'CD2', 'DF3']); // AC: forward from C via D (2 + 3) over E (2 + 2)
    expect(links(3)).toEqual(['AC2', 'BC2', 'CD2', 'DF3']); // BC brings the second source
    // CD adds nothing; CE brings C→E→F, the parallel stream a single path has to drop.
    expect(links(5)).toEqual(['AC2', 'BC2', 'CD2', 'CE2', 'DF3', 'EF2']);
    const five = keyRouteMainPath(papers, citations, 5);
    expect(five.papers).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(five.paths).toBe(5);
    // With every link a key route the whole DAG comes back: the best path through AD is A→D→F.
    expect(links(7)).toEqual(['AC2', 'AD1', 'BC2', 'CD2', 'CE2', 'DF3', 'EF2']);
  });

  it('labels a cluster by the terms frequent in it and rare elsewhere', () => {
    const cluster = [
      ['cartilage', 'repair', 'knee'],
      ['cartilage', 'implantation', 'knee'],
      ['cartilage', 'defects'],
    ];
    const others = [
      ['borderline', 'personality', 'therapy'],
      ['knee', 'pain', 'therapy'],
    ];
    expect(distinctiveTerms(cluster, [...cluster, ...others], 2)).toEqual(['cartilage', 'knee']);
  });

  it('beauty coefficient: the area below the line to the first peak, each year over its citations; awakening', () => {
    // Silent four years, then 10 citations: l_t = 2.5·t, B = 0 + 2.5 + 5 + 7.5 + 0 = 15; the farthest point from the
    // line (10·t − 4·c_t)/√116 is t = 3.
    expect(beautyCoefficient([0, 0, 0, 0, 10, 3])).toEqual({ coefficient: 15, peakAfter: 4, awakeningAfter: 3 });
    // A paper cited most in its first year is no sleeping beauty.
    expect(beautyCoefficient([9, 4, 2])).toEqual({ coefficient: 0, peakAfter: 0, awakeningAfter: 0 });
    // Above the line counts against it: c = [0, 6, 8] → l = [0, 4, 8]: B = 0 + (4 − 6)/6 + 0 = −1/3.
    expect(beautyCoefficient([0, 6, 8]).coefficient).toBeCloseTo(-1 / 3, 12);
  });

  it('citation series from the publication year: citing years inside the graph, or complete OpenAlex counts only', () => {
    const row = {
      id: 'W1',
      year: 2010,
      citing: [2009, 2010, 2012, 2012],
      globalYears: [2012, 2013],
      globalCounts: [4, 6],
    };
    expect(citationSeries(row, 'INTERNAL_CITATIONS')).toEqual([
      { year: 2010, citations: 1 },
      { year: 2011, citations: 0 },
      { year: 2012, citations: 2 },
    ]);
    expect(citationSeries(row, 'GLOBAL_CITATIONS')).toBeNull(); // OpenAlex's years start after 2010
    expect(citationSeries({ ...row, year: 2012 }, 'GLOBAL_CITATIONS')).toEqual([
      { year: 2012, citations: 4 },
      { year: 2013, citations: 6 },
    ]);
  });
});

describe('network files', () => {
  const network: ExportNetwork = {
    name: 'coupling network',
    directed: false,
    nodes: [
      { id: 'W1', label: 'Cartilage & knee, "a review"', weight: 3, cluster: 1 },
      { id: 'W2', label: 'Knee\trepair', weight: 1, cluster: 1 },
      { id: 'W3', label: 'Alone', weight: 1, cluster: 0 },
    ],
    edges: [{ source: 'W1', target: 'W2', weight: 4 }],
  };

  /** Elements of an XML document by name, with their attributes and text, read by htmlparser2 in XML mode. */
  function elements(content: string, name: string): Array<{ attribs: Record<string, string>; text: string }> {
    const document = parseDocument(content, { xmlMode: true });
    return DomUtils.getElementsByTagName(name, document.children, true).map((element) => ({
      attribs: element.attribs,
      text: DomUtils.textContent(element),
    }));
  }

  it('writes GraphML and GEXF that an XML parser reads back whole', () => {
    const graphml = exportNetwork(network, 'GRAPHML');
    expect(elements(graphml, 'graph')[0]!.attribs.edgedefault).toBe('undirected');
    expect(elements(graphml, 'node').map((n) => n.attribs.id)).toEqual(['W1', 'W2', 'W3']);
    expect(elements(graphml, 'data')[0]!.text).toBe('Cartilage & knee, "a review"');
    expect(elements(graphml, 'edge')).toEqual([{ attribs: { id: 'e0', source: 'W1', target: 'W2' }, text: '4' }]);
    const gexf = exportNetwork({ ...network, directed: true }, 'GEXF');
    expect(elements(gexf, 'gexf')[0]!.attribs).toMatchObject({ xmlns: 'http://gexf.net/1.3', version: '1.3' });
    expect(elements(gexf, 'graph')[0]!.attribs.defaultedgetype).toBe('directed');
    expect(elements(gexf, 'node')[0]!.attribs.label).toBe('Cartilage & knee, "a review"');
    expect(elements(gexf, 'edge')[0]!.attribs).toMatchObject({ source: 'W1', target: 'W2', weight: '4' });
  });

  it('writes VOSviewer map and network files that refer to each other by number, and a quoted CSV', () => {
    const map = exportNetwork(network, 'VOSVIEWER_MAP').trimEnd().split('\n');
    expect(map[0]).toBe('id\tlabel\tdescription\tcluster\tweight<Documents>');
    expect(map[2]).toBe('2\tKnee repair\tW2\t1\t1'); // a tab inside a label would break the columns
    expect(exportNetwork(network, 'VOSVIEWER_NETWORK')).toBe('1\t2\t4\n');
    expect(exportNetwork(network, 'CSV').split('\r\n')).toEqual([
      'source,target,weight,source_label,target_label',
      'W1,W2,4,"Cartilage & knee, ""a review""",Knee\trepair',
      '',
    ]);
  });

  it('gives paper nodes their year, DOI and citations in every format, and leaves unknown values out', () => {
    const papers: ExportNetwork = {
      ...network,
      nodes: [
        { ...network.nodes[0]!, year: 2019, doi: '10.1/a&b', citations: 12 },
        { ...network.nodes[1]!, year: null, doi: null, citations: null },
        network.nodes[2]!,
      ],
    };
    const graphml = exportNetwork(papers, 'GRAPHML');
    expect(elements(graphml, 'data').map((d) => d.text)).toEqual([
      'Cartilage & knee, "a review"',
      '3',
      '1',
      '2019',
      '10.1/a&b',
      '12',
      'Knee\trepair',
      '1',
      '1',
      'Alone',
      '1',
      '0',
      '4',
    ]);
    expect(exportNetwork(papers, 'GEXF')).toContain(
      '<attvalue for="2" value="2019"/><attvalue for="3" value="10.1/a&amp;b"/><attvalue for="4" value="12"/>',
    );
    const map = exportNetwork(papers, 'VOSVIEWER_MAP').trimEnd().split('\n');
    expect(map[0]).toBe('id\tlabel\tdescription\turl\tcluster\tweight<Documents>\tweight<Citations>\tscore<Pub. year>');
    expect(map[1]).toBe('1\tCartilage & knee, "a review"\tW1\thttps://doi.org/10.1/a&b\t1\t3\t12\t2019');
    expect(map[2]).toBe('2\tKnee repair\tW2\t\t1\t1\t0\t');
    expect(exportNetwork(papers, 'CSV').split('\r\n')[1]).toBe(
      'W1,W2,4,"Cartilage & knee, ""a review""",2019,10.1/a&b,12,Knee\trepair,,,',
    );
  });
});

describe('author identity', () => {
  it('keys a name by family name and first initial, accents, case and punctuation aside', () => {
    expect(nameKey('José M. García')).toBe('garcia j');
    expect(nameKey('Jose Garcia')).toBe('garcia j');
    expect(nameKey('J. GARCÍA')).toBe('garcia j');
    expect(nameKey('Jean-Pierre Dupont')).toBe('dupont j');
    expect(nameKey('Plato')).toBeNull();
  });
});
