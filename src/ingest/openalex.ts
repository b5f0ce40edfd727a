import type { AuthorshipRecord, InstitutionRecord, TopicRecord, VenueRecord, WorkRecord } from '../domain';
import { normaliseDoi, normalisePmid, shortOpenAlexId } from '../text';

/** A record that could not be mapped, with the reason. */
export class RecordError extends Error {
  override readonly name = 'RecordError';
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length > 0 ? value : null;
}

function numberOrNull(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Rebuilds an abstract from OpenAlex's inverted index (word → positions). */
export function abstractFromInvertedIndex(index: unknown): string | null {
  if (!isObject(index)) return null;
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    if (!Array.isArray(positions)) continue;
    for (const position of positions) {
      if (typeof position === 'number' && Number.isInteger(position) && position >= 0 && position < 1_000_000) {
        words[position] = word;
      }
    }
  }
  const abstract = words
    .filter((word) => word !== undefined)
    .join(' ')
    .trim();
  return abstract.length > 0 ? abstract : null;
}

function mapInstitution(value: unknown): InstitutionRecord | null {
  if (!isObject(value)) return null;
  const id = shortOpenAlexId(value.id);
  if (!id) return null;
  return {
    id,
    name: text(value.display_name),
    ror: text(value.ror),
    countryCode: text(value.country_code),
    type: text(value.type),
  };
}

function mapAuthorships(value: unknown): AuthorshipRecord[] {
  if (!Array.isArray(value)) return [];
  const out: AuthorshipRecord[] = [];
  value.forEach((authorship, order) => {
    if (!isObject(authorship)) return;
    const author = isObject(authorship.author) ? authorship.author : {};
    const name = text(author.display_name) ?? text(authorship.raw_author_name) ?? 'Unknown author';
    const orcid = text(author.orcid);
    out.push({
      authorId: shortOpenAlexId(author.id),
      name,
      orcid: orcid ? orcid.replace(/^https?:\/\/orcid\.org\//, '') : null,
      position: text(authorship.author_position) ?? (order === 0 ? 'first' : 'middle'),
      order,
      corresponding: authorship.is_corresponding === true,
      institutions: (Array.isArray(authorship.institutions) ? authorship.institutions : [])
        .map(mapInstitution)
        .filter((institution): institution is InstitutionRecord => institution !== null),
    });
  });
  return out;
}

/** The venue: 2025+ `primary_location.source`, else 2023 `host_venue`. */
function mapVenue(work: Json): VenueRecord | null {
  const location = isObject(work.primary_location) ? work.primary_location : null;
  const candidates: Array<{ source: Json; publisher: unknown }> = [];
  if (location && isObject(location.source)) {
    candidates.push({ source: location.source, publisher: location.source.host_organization_name });
  }
  if (isObject(work.host_venue)) candidates.push({ source: work.host_venue, publisher: work.host_venue.publisher });
  for (const { source, publisher } of candidates) {
    const id = shortOpenAlexId(source.id);
    if (!id) continue;
    return {
      id,
      name: text(source.display_name),
      issnL: text(source.issn_l),
      issn: Array.isArray(source.issn) ? source.issn.filter((x): x is string => typeof x === 'string') : [],
      type: text(source.type),
      publisher: text(publisher),
    };
  }
  return null;
}

/** Topics: 2023 `concepts` (with their level) and 2025 `topics` (level 3 under domain, field and subfield). */
function mapTopics(work: Json): TopicRecord[] {
  const topics = new Map<string, TopicRecord>();
  for (const concept of Array.isArray(work.concepts) ? work.concepts : []) {
    if (!isObject(concept)) continue;
    const id = shortOpenAlexId(concept.id);
    const name = text(concept.display_name);
    if (!id || !name) continue;
    topics.set(id, {
      id,
      name,
      level: numberOrNull(concept.level) ?? 0,
      score: numberOrNull(concept.score) ?? 0,
      kind: 'concept',
    });
  }
  for (const topic of Array.isArray(work.topics) ? work.topics : []) {
    if (!isObject(topic)) continue;
    const id = shortOpenAlexId(topic.id);
    const name = text(topic.display_name);
    if (!id || !name) continue;
    topics.set(id, { id, name, level: 3, score: numberOrNull(topic.score) ?? 0, kind: 'topic' });
  }
  return [...topics.values()];
}

/**
 * Maps one OpenAlex Work (2023 or 2025+ schema) to a WorkRecord. Throws RecordError when the record cannot be a
 * paper (no usable id); everything else missing becomes null.
 */
export function mapOpenAlexWork(value: unknown): WorkRecord {
  if (!isObject(value)) throw new RecordError('record is not a JSON object');
  const id = shortOpenAlexId(value.id);
  if (!id || !id.startsWith('W'))
    throw new RecordError(`record has no OpenAlex work id (id=${JSON.stringify(value.id ?? null)})`);
  const ids = isObject(value.ids) ? value.ids : {};
  const doi = normaliseDoi(value.doi) ?? normaliseDoi(ids.doi);
  const pmid = normalisePmid(ids.pmid);
  const mag = typeof ids.mag === 'string' || typeof ids.mag === 'number' ? String(ids.mag) : null;
  const abstract = abstractFromInvertedIndex(value.abstract_inverted_index) ?? text(value.abstract);
  const references = new Set<string>();
  for (const reference of Array.isArray(value.referenced_works) ? value.referenced_works : []) {
    const refId = shortOpenAlexId(reference);
    if (refId) references.add(refId);
  }
  const year = numberOrNull(value.publication_year);
  return {
    id,
    ids: { openalex: id, ...(doi ? { doi } : {}), ...(pmid ? { pmid } : {}), ...(mag ? { mag } : {}) },
    doi,
    title: text(value.title) ?? text(value.display_name),
    abstract,
    year: year === null ? null : Math.trunc(year),
    publicationDate: text(value.publication_date),
    type: text(value.type),
    citedByCount: numberOrNull(value.cited_by_count),
    isRetracted: value.is_retracted === true,
    source: 'openalex',
    authorships: mapAuthorships(value.authorships),
    venue: mapVenue(value),
    topics: mapTopics(value),
    references: [...references],
  };
}

/** Maps one BEIR corpus line `{_id, title, text}`; ids are namespaced by collection so corpora never collide. */
export function mapBeirDocument(value: unknown, collection: string): WorkRecord {
  if (!isObject(value)) throw new RecordError('record is not a JSON object');
  const rawId = value._id;
  const localId = typeof rawId === 'number' ? String(rawId) : text(rawId);
  if (!localId) throw new RecordError('record has no _id');
  return {
    id: `${collection}:${localId.trim()}`,
    ids: {},
    doi: null,
    title: text(value.title),
    abstract: text(value.text),
    year: null,
    publicationDate: null,
    type: null,
    citedByCount: null,
    isRetracted: false,
    source: `beir:${collection}`,
    authorships: [],
    venue: null,
    topics: [],
    references: [],
  };
}

/** True when a JSON value is an OpenAlex API result page `{meta, results}`. */
export function isResultPage(value: unknown): value is { results: unknown[] } {
  return isObject(value) && Array.isArray(value.results) && (isObject(value.meta) || 'results' in value);
}
