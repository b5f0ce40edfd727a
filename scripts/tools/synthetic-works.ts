/**
 * Synthetic OpenAlex-shaped works for growth benchmarks: the same JSON shape as OpenAlex's /works (ids, year,
 * authorships with ORCIDs and institutions, primary_location.source, concepts, referenced_works, cited_by_count and
 * a plain-text abstract), with the skews of the real thing and a fixed seed:
 *
 * - papers per year grow by 4% a year (1980–2024); works come out in publication order;
 * - references per paper are log-normal (median ~13), to earlier works chosen by preferential attachment (Price's
 *   model: a work is picked in proportion to its citations + 1) two times in five and uniformly otherwise, so
 *   citations have a power-law tail; one reference in
 *   five points outside the set (a stub, as OpenAlex references mostly do);
 * - authors per paper are geometric (mean ~4): new ones, or returning ones picked partly by preferential attachment
 *   (Lotka-like productivity);
 *   30% of authors have an ORCID; each has one of 2,000 institutions in 60 countries;
 * - 3–6 of 300 concepts (levels 0–3) per paper and one of 1,000 venues, both Zipf-distributed;
 * - titles and abstracts from a Zipf vocabulary of 5,000 words plus the paper's concept names, so BM25 has work to do.
 *
 *   node dist/scripts/tools/synthetic-works.js --papers N [--seed S] --out FILE.jsonl.gz
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { seeded } from '../../src/analytics/science-of-science';

/** Index in [0, n) drawn with probability ∝ 1/(i+1)^s, by inverting a precomputed cumulative table. */
function zipf(n: number, s: number): (random: () => number) => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i += 1) {
    sum += 1 / (i + 1) ** s;
    cumulative[i] = sum;
  }
  return (random) => {
    const target = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ra',
  'si',
  'tu',
  'vo',
  'xe',
  'zy',
  'pho',
  'tri',
  'gen',
  'cyt',
  'neu',
  'ost',
];

function word(index: number): string {
  let text = '';
  let n = index + 17;
  do {
    text += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return text;
}

export interface SyntheticOptions {
  readonly papers: number;
  readonly seed: number;
}

/** The works, in publication order, one OpenAlex-shaped object at a time. */
export function* syntheticWorks(options: SyntheticOptions): Generator<Record<string, unknown>> {
  const random = seeded(options.seed);
  const n = options.papers;
  const firstYear = 1980;
  const lastYear = 2024;
  const weights = Array.from({ length: lastYear - firstYear + 1 }, (_, i) => 1.04 ** i);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const perYear = weights.map((w) => Math.floor((w / totalWeight) * n));
  perYear[perYear.length - 1]! += n - perYear.reduce((a, b) => a + b, 0);

  const vocabulary = zipf(5000, 1.05);
  const conceptPick = zipf(300, 1.1);
  const venuePick = zipf(1000, 1.0);
  const conceptName = (c: number) => `${word(c * 7 + 3)} ${word(c * 11 + 5)}`;
  const conceptLevel = (c: number) => (c < 10 ? 0 : c < 60 ? 1 : c < 200 ? 2 : 3);

  // Preferential attachment pools: an entry per work (or author) plus one per citation (or paper signed).
  const citable: number[] = [];
  const authorPool: number[] = [];
  let authors = 0;

  let index = 0;
  for (let y = 0; y < perYear.length; y += 1) {
    const year = firstYear + y;
    const start = citable.length === 0 ? 0 : index;
    for (let k = 0; k < perYear[y]!; k += 1, index += 1) {
      const id = `W${7_000_000_000 + index}`;
      // References: earlier works (preferential), some outside the set.
      const wanted = Math.min(150, Math.round(Math.exp(2.56 + 0.8 * normal(random))));
      const references = new Set<string>();
      for (let r = 0; r < wanted; r += 1) {
        if (random() < 0.2 || start === 0) {
          references.add(`https://openalex.org/W${6_000_000_000 + Math.floor(random() * n * 4)}`);
          continue;
        }
        // Two in five by preferential attachment, the rest uniformly among earlier works: a power-law tail without
        // a handful of works cited by everyone.
        const cited = random() < 0.4 ? citable[Math.floor(random() * citable.length)]! : Math.floor(random() * start);
        if (cited >= start) continue; // same year: not yet published
        if (!references.has(`https://openalex.org/W${7_000_000_000 + cited}`)) {
          references.add(`https://openalex.org/W${7_000_000_000 + cited}`);
          citable.push(cited);
        }
      }
      // Authors: new ones and returning ones.
      const authorCount = Math.min(20, 1 + Math.floor(Math.log(1 - random()) / Math.log(0.75)));
      const signers = new Set<number>();
      for (let a = 0; a < authorCount; a += 1) {
        const roll = random();
        const author =
          authorPool.length === 0 || roll < 0.45
            ? authors++
            : roll < 0.6
              ? authorPool[Math.floor(random() * authorPool.length)]!
              : Math.floor(random() * authors);
        signers.add(author);
      }
      const authorships = [...signers].map((author, order) => {
        authorPool.push(author);
        const institution = (author * 7919) % 2000;
        return {
          author_position: order === 0 ? 'first' : order === signers.size - 1 ? 'last' : 'middle',
          author: {
            id: `https://openalex.org/A${5_000_000_000 + author}`,
            display_name: `${word(author % 900).replace(/^./, (c) => c.toUpperCase())} ${word(author + 1000).replace(/^./, (c) => c.toUpperCase())}`,
            orcid:
              author % 10 < 3
                ? `https://orcid.org/0000-000${author % 10}-${String(author)
                    .padStart(8, '0')
                    .replace(/(\d{4})(\d{4})/, '$1-$2')}`
                : null,
          },
          institutions: [
            {
              id: `https://openalex.org/I${4_000_000_000 + institution}`,
              display_name: `Institute ${word(institution + 3000)}`,
              ror: null,
              country_code: `${String.fromCharCode(65 + (institution % 20))}${String.fromCharCode(65 + ((institution >> 2) % 3))}`,
              type: 'education',
            },
          ],
          is_corresponding: order === 0,
        };
      });
      const concepts = new Map<number, number>();
      const conceptCount = 3 + Math.floor(random() * 4);
      while (concepts.size < conceptCount) concepts.set(conceptPick(random), Number((0.3 + random() * 0.7).toFixed(4)));
      const venue = venuePick(random);
      const words = (count: number) => Array.from({ length: count }, () => word(vocabulary(random))).join(' ');
      const topicWords = [...concepts.keys()].slice(0, 2).map(conceptName).join(' and ');
      citable.push(index);
      yield {
        id: `https://openalex.org/${id}`,
        doi: random() < 0.8 ? `https://doi.org/10.5555/synthetic.${index}` : null,
        title: `${words(4)} ${topicWords} ${words(2)}`,
        publication_year: year,
        publication_date: `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-15`,
        type: 'article',
        // Global citations (OpenAlex counts the whole literature): heavy-tailed, independent of the set's own.
        cited_by_count: Math.round(Math.exp(1.5 + 1.5 * normal(random))),
        is_retracted: false,
        authorships,
        primary_location: {
          source: {
            id: `https://openalex.org/S${3_000_000_000 + venue}`,
            display_name: `Journal of ${word(venue + 4000)}`,
            issn_l: null,
            type: 'journal',
          },
        },
        concepts: [...concepts.entries()].map(([c, score]) => ({
          id: `https://openalex.org/C${2_000_000_000 + c}`,
          display_name: conceptName(c),
          level: conceptLevel(c),
          score,
        })),
        referenced_works: [...references],
        abstract: `${words(20 + Math.floor(random() * 40))} ${topicWords}. ${words(20 + Math.floor(random() * 60))}.`,
      };
    }
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const papers = Number(value('--papers') ?? 10_000);
  const seed = Number(value('--seed') ?? 42);
  const out = value('--out');
  if (!out || !Number.isInteger(papers) || papers < 1) {
    process.stderr.write('usage: synthetic-works --papers N [--seed S] --out FILE.jsonl.gz\n');
    process.exit(2);
  }
  await writeSyntheticWorks(out, { papers, seed });
}

/** Writes the works as gzipped JSON lines. */
export async function writeSyntheticWorks(file: string, options: SyntheticOptions): Promise<void> {
  const gzip = createGzip({ level: 1 });
  const sink = createWriteStream(file);
  gzip.pipe(sink);
  for (const work of syntheticWorks(options)) {
    if (!gzip.write(`${JSON.stringify(work)}\n`)) await once(gzip, 'drain');
  }
  gzip.end();
  await once(sink, 'finish');
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`synthetic-works failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
