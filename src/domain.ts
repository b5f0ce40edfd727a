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

/** A scholarly work, whatever its source: the unit that ingestion and the external clients produce. */
export interface WorkRecord {
  /** The graph id: the OpenAlex id when there is one, otherwise namespaced by collection or source. */
  id: string;
  ids: WorkIds;
  doi: string | null;
  title: string | null;
  abstract: string | null;
  year: number | null;
  publicationDate: string | null;
  type: string | null;
  citedByCount: number | null;
  isRetracted: boolean;
  source: string;
  authorships: AuthorshipRecord[];
  venue: VenueRecord | null;
  topics: TopicRecord[];
  /** Graph ids of the works this one cites. */
  references: string[];
}

/** An author without a global id is kept per work, so two different people who share a name never merge. */
export function anonymousAuthorId(workId: string, order: number): string {
  return `anon:${workId}:${order}`;
}
