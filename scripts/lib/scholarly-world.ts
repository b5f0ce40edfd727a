/**
 * A local stand-in for the three scholarly APIs' *search* endpoints, answering any query from a fixed pool of real
 * OpenAlex works (the SYNERGY records, or the bundled sample): OpenAlex `/works` (`search=` and the
 * `title_and_abstract.search` filter, boolean AND/OR/NOT, quoted phrases), Crossref `/works` (`query=` and
 * `query.bibliographic=`, any word, ranked), and Semantic Scholar `/graph/v1/paper/search` (any word, ranked) and
 * `/paper/search/bulk` (`+ | - "…" * ( )`, most cited first). Each API is served under its own prefix
 * (`/openalex`, `/crossref`, `/s2`) in its own response shape, built from the same records.
 *
 * What it is not: the providers' ranking. Relevance here is BM25 over titles and abstracts (Crossref: titles, venues
 * and authors — it holds few abstracts), with light stemming; OpenAlex's `search=` also reaches full texts, which the
 * pool does not have. It lets the portfolio ablation and the tests compare *query forms* over real records offline;
 * it says nothing about how well OpenAlex ranks.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

type Raw = Record<string, unknown>;

/** The records of a gzipped JSON-lines file (a SYNERGY works file, the bundled sample). */
export function readWorks(file: string): Raw[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Raw);
}

interface Indexed {
  raw: Raw;
  id: string;
  title: string;
  abstract: string;
  /** Normalised tokens of title + abstract, in order (phrases and truncation match on them). */
  tokens: string[];
  /** Normalised tokens of title, venue and author names (Crossref's searchable fields). */
  biblio: string[];
  cited: number;
}

/** Kstem-like: lower case, possessive and inflectional endings dropped ("possums" → "possum", "studies" → "study"). */
export function normalise(word: string): string {
  const w = word.toLowerCase().replace(/'s$/, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

const tokens = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(normalise);
const STOP = new Set('a an and are as at be by for from in into is of on or the to with'.split(' '));

function abstractOf(raw: Raw): string {
  const index = raw.abstract_inverted_index as Record<string, number[]> | null | undefined;
  if (!index) return typeof raw.abstract === 'string' ? raw.abstract : '';
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) for (const p of positions) words[p] = word;
  return words.filter(Boolean).join(' ');
}

// ---- boolean queries: OpenAlex (AND OR NOT, quotes) and Semantic Scholar bulk (+ | -, quotes, *) ----

type Node =
  | { op: 'and' | 'or'; children: Node[] }
  | { op: 'not'; child: Node }
  | { op: 'term'; words: string[]; prefix: boolean };

function lex(query: string): string[] {
  return query.match(/"[^"]*"|\(|\)|\||\+|-(?=\S)|[^\s()|+"]+/g) ?? [];
}

function parse(query: string, dialect: 'openalex' | 's2'): Node {
  const toks = lex(query);
  let at = 0;
  const isOr = (t: string | undefined) => (dialect === 'openalex' ? t === 'OR' : t === '|');
  const isAnd = (t: string | undefined) => (dialect === 'openalex' ? t === 'AND' : t === '+');
  const isNot = (t: string | undefined) => (dialect === 'openalex' ? t === 'NOT' : t === '-');
  const primary = (): Node | null => {
    const t = toks[at];
    if (t === undefined || t === ')') return null;
    at += 1;
    if (t === '(') {
      const inner = or();
      if (toks[at] === ')') at += 1;
      return inner;
    }
    if (isNot(t)) {
      const child = primary();
      return child ? { op: 'not', child } : null;
    }
    if (t.startsWith('"')) return { op: 'term', words: tokens(t.slice(1, -1)), prefix: false };
    const prefix = t.endsWith('*');
    const words = tokens(prefix ? t.slice(0, -1) : t);
    if (words.length === 0 || (words.length === 1 && STOP.has(words[0]!))) return primary();
    return { op: 'term', words, prefix };
  };
  const and = (): Node => {
    const children: Node[] = [];
    for (;;) {
      if (isAnd(toks[at])) at += 1;
      if (isOr(toks[at]) || toks[at] === ')' || toks[at] === undefined) break;
      const node = primary();
      if (!node) break;
      children.push(node);
    }
    return { op: 'and', children };
  };
  const or = (): Node => {
    const children = [and()];
    while (isOr(toks[at])) {
      at += 1;
      children.push(and());
    }
    return children.length === 1 ? children[0]! : { op: 'or', children };
  };
  return or();
}

function matches(node: Node, doc: Indexed): boolean {
  switch (node.op) {
    case 'and':
      return node.children.every((child) => matches(child, doc));
    case 'or':
      return node.children.some((child) => matches(child, doc));
    case 'not':
      return !matches(node.child, doc);
    case 'term': {
      const { words, prefix } = node;
      const last = words.length - 1;
      return doc.tokens.some((_, i) =>
        words.every((w, k) => {
          const token = doc.tokens[i + k];
          return token !== undefined && (prefix && k === last ? token.startsWith(w) : token === w);
        }),
      );
    }
  }
}

/** The words a query ranks by (its positive terms). */
function rankWords(node: Node, negated = false): string[] {
  if (node.op === 'term') return negated ? [] : node.words;
  if (node.op === 'not') return rankWords(node.child, !negated);
  return node.children.flatMap((child) => rankWords(child, negated));
}

// ---- ranking ----

class Bm25 {
  private readonly df = new Map<string, number>();
  private readonly avg: number;

  constructor(
    private readonly docs: readonly Indexed[],
    private readonly field: 'tokens' | 'biblio',
  ) {
    for (const doc of docs) for (const t of new Set(doc[field])) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.avg = docs.reduce((sum, doc) => sum + doc[field].length, 0) / Math.max(1, docs.length);
  }

  score(doc: Indexed, words: readonly string[]): number {
    const field = doc[this.field];
    let score = 0;
    for (const word of new Set(words)) {
      if (STOP.has(word)) continue;
      const tf = field.filter((t) => t === word).length;
      if (tf === 0) continue;
      const df = this.df.get(word) ?? 0;
      const idf = Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * field.length) / this.avg));
    }
    return score;
  }

  /** Documents holding any of the words, best first. */
  ranked(words: readonly string[], pool: readonly Indexed[] = this.docs): Indexed[] {
    return pool
      .map((doc) => ({ doc, score: this.score(doc, words) }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || (a.doc.id < b.doc.id ? -1 : 1))
      .map((hit) => hit.doc);
  }
}

// ---- response shapes ----

const str = (value: unknown) => (typeof value === 'string' ? value : null);
const shortId = (url: unknown) => String(url).replace('https://openalex.org/', '');
const doiOf = (raw: Raw) => (typeof raw.doi === 'string' ? raw.doi.replace(/^https?:\/\/doi\.org\//, '') : null);
const venueOf = (raw: Raw) =>
  ((raw.primary_location as Raw | null)?.source as Raw | null)?.display_name as string | undefined;
const authorsOf = (raw: Raw) =>
  ((raw.authorships as Raw[] | undefined) ?? []).map((a) => ({
    id: shortId((a.author as Raw | null)?.id ?? ''),
    name: str((a.author as Raw | null)?.display_name) ?? 'Unknown',
  }));

function crossrefItem(doc: Indexed): Raw {
  const raw = doc.raw;
  const venue = venueOf(raw);
  return {
    DOI: doiOf(raw),
    title: [doc.title],
    type: 'journal-article',
    'container-title': venue ? [venue] : [],
    issued: { 'date-parts': [[raw.publication_year]] },
    'is-referenced-by-count': doc.cited,
    author: authorsOf(raw).map((a) => {
      const parts = a.name.split(' ');
      return { given: parts.slice(0, -1).join(' '), family: parts.at(-1), sequence: 'additional' };
    }),
  };
}

function s2Paper(doc: Indexed): Raw {
  const raw = doc.raw;
  const ids = (raw.ids ?? {}) as Raw;
  const pmid = typeof ids.pmid === 'string' ? ids.pmid.replace(/\D/g, '') : null;
  return {
    paperId: createHash('sha1').update(doc.id).digest('hex'),
    externalIds: { ...(doiOf(raw) ? { DOI: doiOf(raw) } : {}), ...(pmid ? { PubMed: pmid } : {}) },
    title: doc.title,
    abstract: doc.abstract || null,
    year: raw.publication_year ?? null,
    venue: venueOf(raw) ?? '',
    citationCount: doc.cited,
    authors: authorsOf(raw).map((a) => ({
      authorId: createHash('sha1').update(a.id).digest('hex').slice(0, 9),
      name: a.name,
    })),
  };
}

/** Every request the world answered: provider, path and parameters (for tests and the bench's call counts). */
export interface WorldRequest {
  provider: 'openalex' | 'crossref' | 's2';
  path: string;
  params: Record<string, string>;
}

export class ScholarlyWorld {
  readonly requests: WorldRequest[] = [];
  private readonly docs: Indexed[];
  private readonly text: Bm25;
  private readonly biblio: Bm25;
  private server: http.Server | undefined;

  /** `works`: raw OpenAlex work objects (any schema with id, title or display_name, and optionally the abstract). */
  constructor(works: readonly Raw[]) {
    const seen = new Set<string>();
    this.docs = works.flatMap((raw) => {
      const id = shortId(raw.id);
      const title = str(raw.title) ?? str(raw.display_name) ?? '';
      if (!title || seen.has(id)) return [];
      seen.add(id);
      const abstract = abstractOf(raw);
      const venue = venueOf(raw) ?? '';
      const names = authorsOf(raw)
        .map((a) => a.name)
        .join(' ');
      return [
        {
          raw,
          id,
          title,
          abstract,
          tokens: tokens(`${title} ${abstract}`),
          biblio: tokens(`${title} ${venue} ${names}`),
          cited: typeof raw.cited_by_count === 'number' ? raw.cited_by_count : 0,
        },
      ];
    });
    this.text = new Bm25(this.docs, 'tokens');
    this.biblio = new Bm25(this.docs, 'biblio');
  }

  get size(): number {
    return this.docs.length;
  }

  /** Starts the server; the settings that point the three clients at it (base URLs, no rate limit to speak of). */
  async start(): Promise<Record<string, string>> {
    this.server = http.createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return {
      OPENALEX_BASE_URL: `${base}/openalex`,
      CROSSREF_BASE_URL: `${base}/crossref`,
      S2_BASE_URL: `${base}/s2`,
      OPENALEX_RPS: '100',
      CROSSREF_RPS: '100',
      S2_RPS: '100',
      CITEGRAPH_HTTP_RETRIES: '0',
    };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private openalex(params: Record<string, string>): Raw {
    const filter = /title_and_abstract\.search:([^,]*)/.exec(params.filter ?? '')?.[1];
    const query = params.search ?? filter ?? '';
    const tree = parse(query, 'openalex');
    const hits = this.text.ranked(
      rankWords(tree),
      this.docs.filter((doc) => matches(tree, doc)),
    );
    const perPage = Math.min(200, Number(params['per-page'] ?? params.per_page ?? 25));
    return { meta: { count: hits.length, next_cursor: null }, results: hits.slice(0, perPage).map((doc) => doc.raw) };
  }

  private crossref(params: Record<string, string>): Raw {
    const bibliographic = params['query.bibliographic'];
    const hits = bibliographic
      ? this.biblio.ranked(tokens(bibliographic))
      : this.biblio.ranked(tokens(params.query ?? ''));
    const rows = Math.min(1000, Number(params.rows ?? 20));
    const items = hits.filter((doc) => doiOf(doc.raw)).slice(0, rows);
    return { status: 'ok', message: { 'total-results': hits.length, items: items.map(crossrefItem) } };
  }

  private s2(path: string, params: Record<string, string>): Raw {
    if (path.endsWith('/paper/search/bulk')) {
      const tree = parse(params.query ?? '', 's2');
      const hits = this.docs
        .filter((doc) => matches(tree, doc))
        .sort((a, b) => b.cited - a.cited || (a.id < b.id ? -1 : 1));
      return { total: hits.length, token: null, data: hits.slice(0, 1000).map(s2Paper) };
    }
    const hits = this.text.ranked(tokens(params.query ?? ''));
    const offset = Number(params.offset ?? 0);
    const limit = Math.min(100, Number(params.limit ?? 10));
    const page = hits.slice(offset, offset + limit);
    return {
      total: hits.length,
      offset,
      ...(offset + limit < hits.length ? { next: offset + limit } : {}),
      data: page.map(s2Paper),
    };
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://world');
    const params = Object.fromEntries(url.searchParams.entries());
    const [, provider, ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    let body: Raw | null = null;
    if (provider === 'openalex' && path === '/works') body = this.openalex(params);
    else if (provider === 'crossref' && path === '/works') body = this.crossref(params);
    else if (provider === 's2' && path.startsWith('/graph/v1/paper/search')) body = this.s2(path, params);
    if (provider === 'openalex' || provider === 'crossref' || provider === 's2')
      this.requests.push({ provider, path, params });
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { error: `not served here: ${url.pathname}` }));
  }
}
