import type { WorkIds, WorkRecord } from '../domain';

/** A work as several sources gave it, merged into one, with the source of every field. */
export interface MergedWork {
  record: WorkRecord;
  sources: string[];
  /** field → the source its value came from. */
  provenance: Record<string, string>;
  /** The records merged into it, as the sources gave them. */
  members: WorkRecord[];
}

/** Title reduced to lower-case letters and digits, for matching records without a DOI. */
export function normaliseTitle(title: string | null): string | null {
  if (!title) return null;
  const normal = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return normal.length >= 10 ? normal : null;
}

/** Sources in order of trust for descriptive fields: OpenAlex, then Crossref, then Semantic Scholar. */
const PRIORITY = ['openalex', 'crossref', 's2'];
const rank = (source: string) => {
  const index = PRIORITY.indexOf(source.split(':')[0]!);
  return index < 0 ? PRIORITY.length : index;
};

const FIELDS = [
  'title',
  'abstract',
  'year',
  'publicationDate',
  'type',
  'venue',
  'volume',
  'issue',
  'firstPage',
  'lastPage',
  'language',
  'license',
] as const;

function mergeGroup(records: WorkRecord[]): MergedWork {
  const ordered = [...records].sort((a, b) => rank(a.source) - rank(b.source));
  const best = ordered[0]!;
  const provenance: Record<string, string> = {};
  const merged: WorkRecord = { ...best, ids: {}, references: [], authorships: [], topics: [] };
  for (const field of FIELDS) {
    const from = ordered.find((record) => record[field] !== null && record[field] !== undefined);
    if (from) {
      (merged as unknown as Record<string, unknown>)[field] = from[field];
      provenance[field] = from.source;
    }
  }
  // The abstract: a plain one beats none; OpenAlex's rebuilt inverted index is preferred when there.
  const ids: WorkIds = {};
  for (const record of ordered) {
    for (const [key, value] of Object.entries(record.ids) as Array<[keyof WorkIds, string | undefined]>) {
      if (value && !ids[key]) {
        ids[key] = value;
        provenance[`ids.${key}`] = record.source;
      }
    }
  }
  merged.ids = ids;
  merged.doi = ids.doi ?? null;
  if (merged.doi) provenance.doi = provenance['ids.doi']!;
  const counts = ordered.filter((record) => record.citedByCount !== null);
  if (counts.length > 0) {
    const top = counts.reduce((a, b) => ((b.citedByCount ?? 0) > (a.citedByCount ?? 0) ? b : a));
    merged.citedByCount = top.citedByCount;
    provenance.citedByCount = top.source;
  }
  merged.isRetracted = ordered.some((record) => record.isRetracted);
  if (merged.isRetracted) provenance.isRetracted = ordered.find((record) => record.isRetracted)!.source;
  const withAuthors = ordered.find((record) => record.authorships.length > 0);
  if (withAuthors) {
    merged.authorships = withAuthors.authorships;
    provenance.authorships = withAuthors.source;
  }
  const withKeywords = ordered.find((record) => (record.keywords?.length ?? 0) > 0);
  if (withKeywords) {
    merged.keywords = withKeywords.keywords;
    provenance.keywords = withKeywords.source;
  }
  const withTopics = ordered.find((record) => record.topics.length > 0);
  if (withTopics) {
    merged.topics = withTopics.topics;
    provenance.topics = withTopics.source;
  }
  merged.references = [...new Set(ordered.flatMap((record) => record.references))];
  if (merged.references.length > 0)
    provenance.references = [...new Set(ordered.filter((r) => r.references.length > 0).map((r) => r.source))].join('+');
  merged.id = ids.openalex ?? (ids.doi ? `doi:${ids.doi}` : best.id);
  merged.source = [...new Set(ordered.map((record) => record.source))].join('+');
  return {
    record: merged,
    sources: [...new Set(ordered.map((record) => record.source))],
    provenance,
    members: records,
  };
}

/**
 * Merges records of the same works from several sources: first by DOI, then by normalised title and year (a year
 * apart is tolerated: online-first and print years differ). The union of identifiers survives.
 */
export function mergeWorks(records: readonly WorkRecord[]): MergedWork[] {
  const groups: WorkRecord[][] = [];
  const byDoi = new Map<string, WorkRecord[]>();
  const byTitle = new Map<string, WorkRecord[][]>();
  for (const record of records) {
    const doi = record.doi ?? record.ids.doi ?? null;
    const title = normaliseTitle(record.title);
    let group = doi ? byDoi.get(doi) : undefined;
    if (!group && title) {
      group = (byTitle.get(title) ?? []).find((candidate) =>
        candidate.some((other) => {
          const otherDoi = other.doi ?? other.ids.doi;
          const yearsAgree = other.year === null || record.year === null || Math.abs(other.year - record.year) <= 1;
          return yearsAgree && (!doi || !otherDoi || otherDoi === doi);
        }),
      );
    }
    if (!group) {
      group = [];
      groups.push(group);
    }
    group.push(record);
    if (doi) byDoi.set(doi, group);
    if (title) {
      const list = byTitle.get(title) ?? [];
      if (!list.includes(group)) list.push(group);
      byTitle.set(title, list);
    }
  }
  return groups.map(mergeGroup);
}
