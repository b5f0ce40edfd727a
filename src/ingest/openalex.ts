import type { AuthorshipRecord, InstitutionRecord, TopicRecord, VenueRecord, WorkDetails, WorkRecord } from '../domain';
import {
  cleanTitle,
  isJsonObject,
  type JsonObject,
  nonEmpty,
  normaliseDoi,
  normalisePmid,
  shortOpenAlexId,
} from '../text';

/** A record that could not be mapped, with the reason. */
export class RecordError extends Error {
  override readonly name = 'RecordError';
}

/** Told of a field whose value was not stored as given (wrong type, out of range), naming the field. */
export type FieldWarning = (field: string, problem: string) => void;

const ignore: FieldWarning = () => undefined;

/** Largest count the API can return (GraphQL Int). */
export const MAX_COUNT = 2_147_483_647;

/** Years a work may have; anything else is stored as unknown. */
export const YEAR_RANGE = { min: 1000, max: 2200 } as const;

function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}

/** A whole number within [min, max], or null with a warning naming the field (a digit string counts as its number). */
export function wholeNumberField(
  value: unknown,
  field: string,
  min: number,
  max: number,
  warn: FieldWarning,
): number | null {
  if (value === undefined || value === null) return null;
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || !Number.isInteger(n)) {
    warn(field, `expected a whole number, got ${shown(value)}; stored as unknown`);
    return null;
  }
  if (n < min || n > max) {
    warn(field, `${n} is outside ${min}–${max}; stored as unknown`);
    return null;
  }
  return n;
}

/** Text, or null; a value of another type is reported, not turned into text. */
export function textField(value: unknown, field: string, warn: FieldWarning): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    warn(field, `expected text, got ${shown(value)}; stored as unknown`);
    return null;
  }
  return nonEmpty(value);
}

/** A list, or an empty one; a value of another type is reported. */
function listField(value: unknown, field: string, warn: FieldWarning): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warn(field, `expected a list, got ${shown(value)}; ignored`);
    return [];
  }
  return value;
}

function numberOrNull(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Rebuilds an abstract from OpenAlex's inverted index (word → positions). */
export function abstractFromInvertedIndex(index: unknown): string | null {
  if (!isJsonObject(index)) return null;
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
  if (!isJsonObject(value)) return null;
  const id = shortOpenAlexId(value.id);
  if (!id) return null;
  return {
    id,
    name: nonEmpty(value.display_name),
    ror: nonEmpty(value.ror),
    countryCode: nonEmpty(value.country_code),
    type: nonEmpty(value.type),
  };
}

function mapAuthorships(value: unknown): AuthorshipRecord[] {
  if (!Array.isArray(value)) return [];
  const out: AuthorshipRecord[] = [];
  value.forEach((authorship, order) => {
    if (!isJsonObject(authorship)) return;
    const author = isJsonObject(authorship.author) ? authorship.author : {};
    const name = nonEmpty(author.display_name) ?? nonEmpty(authorship.raw_author_name) ?? 'Unknown author';
    const orcid = nonEmpty(author.orcid);
    out.push({
      authorId: shortOpenAlexId(author.id),
      name,
      orcid: orcid ? orcid.replace(/^https?:\/\/orcid\.org\//, '') : null,
      position: nonEmpty(authorship.author_position) ?? (order === 0 ? 'first' : 'middle'),
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
function mapVenue(work: JsonObject): VenueRecord | null {
  const location = isJsonObject(work.primary_location) ? work.primary_location : null;
  const candidates: Array<{ source: JsonObject; publisher: unknown }> = [];
  if (location && isJsonObject(location.source)) {
    candidates.push({ source: location.source, publisher: location.source.host_organization_name });
  }
  if (isJsonObject(work.host_venue)) candidates.push({ source: work.host_venue, publisher: work.host_venue.publisher });
  for (const { source, publisher } of candidates) {
    const id = shortOpenAlexId(source.id);
    if (!id) continue;
    return {
      id,
      name: nonEmpty(source.display_name),
      issnL: nonEmpty(source.issn_l),
      issn: Array.isArray(source.issn) ? source.issn.filter((x): x is string => typeof x === 'string') : [],
      type: nonEmpty(source.type),
      publisher: nonEmpty(publisher),
    };
  }
  return null;
}

/** Keywords without repeats (case and spacing ignored), in the order given. */
export function distinctKeywords(words: ReadonlyArray<string | null>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of words) {
    const clean = word?.replace(/\s+/g, ' ').trim();
    if (!clean || seen.has(clean.toLowerCase())) continue;
    seen.add(clean.toLowerCase());
    out.push(clean);
  }
  return out;
}

/**
 * Volume, issue, pages (`biblio`), language, the licence of the primary (else best open) location, and keywords:
 * OpenAlex's own (`keywords`, 2023 `{keyword}` or 2025 `{display_name}`), then MeSH descriptors, major topics first.
 */
function mapDetails(work: JsonObject, warn: FieldWarning): WorkDetails {
  const biblio = isJsonObject(work.biblio) ? work.biblio : {};
  const part = (value: unknown) => (typeof value === 'number' ? String(value) : (nonEmpty(value)?.trim() ?? null));
  const license = [work.primary_location, work.best_oa_location]
    .filter(isJsonObject)
    .map((location) => nonEmpty(location.license))
    .find((value) => value !== null);
  const own = listField(work.keywords, 'keywords', warn).map((keyword) =>
    typeof keyword === 'string'
      ? keyword
      : isJsonObject(keyword)
        ? (nonEmpty(keyword.display_name) ?? nonEmpty(keyword.keyword))
        : null,
  );
  const mesh = listField(work.mesh, 'mesh', warn)
    .filter(isJsonObject)
    .map((heading, index) => ({
      name: nonEmpty(heading.descriptor_name),
      major: heading.is_major_topic === true,
      index,
    }))
    .sort((a, b) => Number(b.major) - Number(a.major) || a.index - b.index)
    .map((heading) => heading.name);
  return {
    volume: part(biblio.volume),
    issue: part(biblio.issue),
    firstPage: part(biblio.first_page),
    lastPage: part(biblio.last_page),
    language: nonEmpty(work.language),
    license: license ?? null,
    keywords: distinctKeywords([...own, ...mesh]),
  };
}

/** Topics: 2023 `concepts` (with their level) and 2025 `topics` (level 3 under domain, field and subfield). */
function mapTopics(work: JsonObject, warn: FieldWarning): TopicRecord[] {
  const topics = new Map<string, TopicRecord>();
  listField(work.concepts, 'concepts', warn).forEach((concept, index) => {
    if (!isJsonObject(concept)) return;
    const id = shortOpenAlexId(concept.id);
    const name = nonEmpty(concept.display_name);
    if (!id || !name) return;
    topics.set(id, {
      id,
      name,
      level: wholeNumberField(concept.level, `concepts[${index}].level`, 0, 10, warn) ?? 0,
      score: numberOrNull(concept.score) ?? 0,
      kind: 'concept',
    });
  });
  for (const topic of listField(work.topics, 'topics', warn)) {
    if (!isJsonObject(topic)) continue;
    const id = shortOpenAlexId(topic.id);
    const name = nonEmpty(topic.display_name);
    if (!id || !name) continue;
    topics.set(id, { id, name, level: 3, score: numberOrNull(topic.score) ?? 0, kind: 'topic' });
  }
  return [...topics.values()];
}

/**
 * Maps one OpenAlex Work (2023 or 2025+ schema) to a WorkRecord. Throws RecordError when the record cannot be a
 * paper (no usable id); everything else missing becomes null.
 */
export function mapOpenAlexWork(value: unknown, warn: FieldWarning = ignore): WorkRecord {
  if (!isJsonObject(value)) throw new RecordError('record is not a JSON object');
  const id = shortOpenAlexId(value.id);
  if (!id || !id.startsWith('W'))
    throw new RecordError(`record has no OpenAlex work id (id=${JSON.stringify(value.id ?? null)})`);
  const ids = isJsonObject(value.ids) ? value.ids : {};
  const doi = normaliseDoi(value.doi) ?? normaliseDoi(ids.doi);
  const pmid = normalisePmid(ids.pmid);
  const mag = typeof ids.mag === 'string' || typeof ids.mag === 'number' ? String(ids.mag) : null;
  const abstract =
    abstractFromInvertedIndex(value.abstract_inverted_index) ?? textField(value.abstract, 'abstract', warn);
  const references = new Set<string>();
  for (const reference of listField(value.referenced_works, 'referenced_works', warn)) {
    const refId = shortOpenAlexId(reference);
    if (refId) references.add(refId);
  }
  return {
    id,
    ids: { openalex: id, ...(doi ? { doi } : {}), ...(pmid ? { pmid } : {}), ...(mag ? { mag } : {}) },
    doi,
    title: titleText(textField(value.title, 'title', warn) ?? textField(value.display_name, 'display_name', warn)),
    abstract,
    year: wholeNumberField(value.publication_year, 'publication_year', YEAR_RANGE.min, YEAR_RANGE.max, warn),
    publicationDate: textField(value.publication_date, 'publication_date', warn),
    type: textField(value.type, 'type', warn),
    citedByCount: wholeNumberField(value.cited_by_count, 'cited_by_count', 0, MAX_COUNT, warn),
    isRetracted: value.is_retracted === true,
    source: 'openalex',
    authorships: mapAuthorships(listField(value.authorships, 'authorships', warn)),
    venue: mapVenue(value),
    topics: mapTopics(value, warn),
    references: [...references],
    countsByYear: countsByYear(value.counts_by_year),
    ...mapDetails(value, warn),
  };
}

/** counts_by_year entries with a plausible year and a count, oldest first; malformed entries are left out. */
function countsByYear(value: unknown): Array<{ year: number; citations: number }> {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (entry): entry is { year: number; cited_by_count: number } =>
        typeof entry === 'object' &&
        entry !== null &&
        Number.isInteger((entry as { year?: unknown }).year) &&
        Number.isInteger((entry as { cited_by_count?: unknown }).cited_by_count) &&
        (entry as { year: number }).year >= YEAR_RANGE.min &&
        (entry as { year: number }).year <= YEAR_RANGE.max &&
        (entry as { cited_by_count: number }).cited_by_count >= 0,
    )
    .map((entry) => ({ year: entry.year, citations: entry.cited_by_count }))
    .sort((a, b) => a.year - b.year);
}

/** A title without the publisher's markup (see cleanTitle); null stays null. */
const titleText = (title: string | null) => (title === null ? null : cleanTitle(title));

/** Maps one BEIR corpus line `{_id, title, text}`; ids are namespaced by collection so corpora never collide. */
export function mapBeirDocument(value: unknown, collection: string, warn: FieldWarning = ignore): WorkRecord {
  if (!isJsonObject(value)) throw new RecordError('record is not a JSON object');
  const rawId = value._id;
  const localId = typeof rawId === 'number' ? String(rawId) : nonEmpty(rawId);
  if (!localId) throw new RecordError('record has no _id');
  return {
    id: `${collection}:${localId.trim()}`,
    ids: {},
    doi: null,
    title: textField(value.title, 'title', warn),
    abstract: textField(value.text, 'text', warn),
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
  return isJsonObject(value) && Array.isArray(value.results) && (isJsonObject(value.meta) || 'results' in value);
}
