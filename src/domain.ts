/** Domain types shared by ingestion, the external clients and the API. */

/** Identifiers a work is known by; every one is normalised (DOI lower-case, no resolver prefix; OpenAlex short id). */
export interface WorkIds {
  openalex?: string;
  doi?: string;
  pmid?: string;
  mag?: string;
  s2?: string;
}

export interface InstitutionRecord {
  id: string;
  name: string | null;
  ror: string | null;
  countryCode: string | null;
  type: string | null;
}

export interface AuthorshipRecord {
  /** The author's global id; null when the source gave none (see `anonymousAuthorId`). */
  authorId: string | null;
  name: string;
  orcid: string | null;
  /** first, middle or last, as OpenAlex reports it. */
  position: string;
  /** 0-based place in the author list. */
  order: number;
  corresponding: boolean;
  institutions: InstitutionRecord[];
}

export interface VenueRecord {
  id: string;
  name: string | null;
  issnL: string | null;
  issn: string[];
  type: string | null;
  publisher: string | null;
}

export interface TopicRecord {
  id: string;
  name: string;
  level: number;
  score: number;
  /** concept (OpenAlex 2023 schema) or topic (2025 schema). */
  kind: 'concept' | 'topic';
}

/**
 * What a reference manager needs besides title, authors, venue and year: where the work sits in its venue and what it
 * is published under. Sources that do not give a field leave it out.
 */
export interface WorkDetails {
  volume?: string | null;
  issue?: string | null;
  firstPage?: string | null;
  lastPage?: string | null;
  /** Language code as the source gives it (ISO 639-1 from OpenAlex and Crossref). */
  language?: string | null;
  /** Licence of the version of record: OpenAlex's short name (cc-by, …) or Crossref's licence URL. */
  license?: string | null;
  /** Keywords: the source's own keywords, then its MeSH descriptors (as PubMed exports them), without repeats. */
  keywords?: string[];
}

/** A scholarly work, whatever its source: the unit that ingestion and the external clients produce. */
export interface WorkRecord extends WorkDetails {
  /** The graph id: the OpenAlex id when there is one, otherwise namespaced by collection or source. */
  id: string;
  ids: WorkIds;
  doi: string | null;
  title: string | null;
  abstract: string | null;
  year: number | null;
  /** ISO date (YYYY-MM-DD) when the source gave one. */
  publicationDate: string | null;
  /** OpenAlex work type: article (journal-article in older records), book, book-chapter, dissertation, preprint, … */
  type: string | null;
  citedByCount: number | null;
  isRetracted: boolean;
  source: string;
  authorships: AuthorshipRecord[];
  venue: VenueRecord | null;
  topics: TopicRecord[];
  /** Graph ids of the works this one cites. */
  references: string[];
  /** Citations received per year, as OpenAlex's counts_by_year gives them (its last ten years or so). */
  countsByYear?: Array<{ year: number; citations: number }>;
}

/** An author without a global id is kept per work, so two different people who share a name never merge. */
export function anonymousAuthorId(workId: string, order: number): string {
  return `anon:${workId}:${order}`;
}

// ------------------------------------------------------------------------------------------------ graph rows

/**
 * A Paper node as the graph returns it (`p {.*}`): a full paper, or a stub known only because something cites it.
 * Neo4j stores no nulls, so an unknown field is absent rather than null.
 */
export interface PaperRow {
  readonly id: string;
  readonly stub?: boolean;
  readonly doi?: string | null;
  readonly title?: string | null;
  readonly abstract?: string | null;
  readonly year?: number | null;
  readonly publicationDate?: string | null;
  readonly type?: string | null;
  readonly citedByCount?: number | null;
  readonly isRetracted?: boolean;
  readonly source?: string | null;
  readonly collections?: readonly string[];
  /** Citations from full papers of the graph (a stored aggregate, recounted by every write). */
  readonly internalCitedBy?: number;
  readonly openalexId?: string | null;
  readonly pmid?: string | null;
  readonly mag?: string | null;
  readonly s2Id?: string | null;
  readonly referenceCount?: number | null;
  readonly fetchedAt?: string | null;
  /** Vocabulary from citing titles (and the LLM), indexed for BM25 only. */
  readonly enrichment?: string | null;
  readonly contentHash?: string | null;
  readonly volume?: string | null;
  readonly issue?: string | null;
  readonly firstPage?: string | null;
  readonly lastPage?: string | null;
  readonly language?: string | null;
  readonly license?: string | null;
  readonly keywords?: readonly string[] | null;
}

/** An Author node: an identified author, or an anonymous one kept per work. */
export interface AuthorRow {
  readonly id: string;
  readonly name?: string | null;
  readonly orcid?: string | null;
  readonly anonymous?: boolean;
}

export interface VenueRow {
  readonly id: string;
  readonly name?: string | null;
  readonly issnL?: string | null;
  readonly issn?: readonly string[] | null;
  readonly type?: string | null;
  readonly publisher?: string | null;
}

export interface TopicRow {
  readonly id: string;
  readonly name?: string | null;
  readonly level?: number | null;
  readonly kind?: string | null;
}

export interface InstitutionRow {
  readonly id: string;
  readonly name?: string | null;
  readonly ror?: string | null;
  readonly countryCode?: string | null;
  readonly type?: string | null;
}

/** A chunk of a paper's source text, with character offsets into that text. */
export interface ChunkRow {
  readonly id: string;
  readonly paperId: string;
  readonly text: string;
  readonly ordinal: number;
  readonly tokenCount: number;
  readonly start: number;
  readonly end: number;
  readonly section: string | null;
  /** The paper field start/end index: title, abstract, or text (a document's full text). */
  readonly field?: CitationField;
  readonly pageStart?: number | null;
  readonly pageEnd?: number | null;
}

// ------------------------------------------------------------------------------------------------ filters

/**
 * The one paper filter every list, search and analysis takes (GraphQL `WorkFilter`); an absent field restricts
 * nothing, several values of one field are alternatives, and fields combine with AND.
 */
export interface PaperFilter {
  readonly collections?: readonly string[] | null;
  readonly yearFrom?: number | null;
  readonly yearTo?: number | null;
  readonly topics?: readonly string[] | null;
  readonly authors?: readonly string[] | null;
  readonly venues?: readonly string[] | null;
  /** Papers with an identified author affiliated with any of these institutions. */
  readonly institutions?: readonly string[] | null;
  /** Papers with an identified author affiliated with an institution in any of these countries (ISO 3166 alpha-2). */
  readonly countries?: readonly string[] | null;
  /** Words every matching paper's title or abstract holds (the index stems them), as the user gave them. */
  readonly text?: string | null;
  /**
   * The papers `text` matches, with their Lucene relevance: set once per request before the filter reaches a query
   * (src/api/inputs.ts); a filter with `text` and without it is a programming error.
   */
  readonly textScores?: ReadonlyMap<string, number> | null;
  /** Only papers with (true) or without (false) a DOI. */
  readonly hasDoi?: boolean | null;
  /** Bounds on the global citation count (OpenAlex cited_by_count). */
  readonly citedByMin?: number | null;
  readonly citedByMax?: number | null;
}

/** What orders a list of papers; ties are broken by id. */
export type PaperSortField = 'ID' | 'YEAR' | 'CITATIONS' | 'INTERNAL_CITATIONS' | 'TITLE' | 'RELEVANCE' | 'DISRUPTION';

/** The one paper sort: a field and a direction (papers without the field come last either way). */
export interface PaperSort {
  readonly by: PaperSortField;
  readonly descending: boolean;
}

// ------------------------------------------------------------------------------------------------ evidence

/** What answers and the sufficiency score need to know about the paper behind a passage. */
export interface EvidencePaper {
  id: string;
  title: string | null;
  year: number | null;
  doi: string | null;
  venue: string | null;
  authors: number | null;
  source: string | null;
  fetchedAt: string | null;
}

/** The field of a paper a passage (and a citation) comes from. */
export type CitationField = 'title' | 'abstract' | 'text';

/** A passage that may support an answer: the unit answers cite. */
export interface Evidence {
  /** Stable id: the chunk id. */
  id: string;
  paperId: string;
  chunkId: string;
  text: string;
  /** The paper field the passage was cut from; start/end are offsets into it. */
  field: CitationField;
  start: number;
  end: number;
  /** Where in a document the passage stands: its section heading and kind, its first and last page (or null). */
  section?: string | null;
  sectionKind?: string | null;
  pageStart?: number | null;
  pageEnd?: number | null;
  /** 0–100: how well the passage answers the question (see scoreEvidence). */
  score: number;
  /** Raw cosine similarity of passage and question. */
  similarity: number;
  source: 'local' | 'graph' | 'external';
  /** Sub-queries that found it. */
  foundBy: string[];
  paper: EvidencePaper;
}
