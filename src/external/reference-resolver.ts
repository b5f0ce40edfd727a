import type { WorkRecord } from '../domain';
import { type ReferenceEntry, titleKey } from '../documents/identity';
import type { OnlineMatch } from '../ingest/document-ingest';
import type { RequestContext } from '../request-context';

/** What online resolution needs of the scholarly APIs: a citation-string match (Crossref), a work by DOI (OpenAlex). */
export interface ReferenceLookup {
  bibliographic(ctx: RequestContext, citation: string, rows: number): Promise<WorkRecord[]>;
  byDoi(ctx: RequestContext, doi: string): Promise<WorkRecord | null>;
}

/** Words of a normalised title (stopwords kept: short titles are short). */
const words = (key: string) => key.split(' ').filter(Boolean);

/**
 * Whether a candidate work is the one a reference entry cites: its normalised title stands in the entry (compared
 * without spaces, so a hyphen joined at a line end still matches), a year of the entry is within one of the work's,
 * and — for a title of fewer than four words, which a long entry may contain by chance — the family name of one of its
 * authors is in the entry too. Crossref ranks by relevance, never by identity; this is what makes a hit a match.
 */
export function citesWork(entry: ReferenceEntry, work: WorkRecord): boolean {
  if (!work.title) return false;
  const key = titleKey(work.title);
  const raw = titleKey(entry.raw);
  if (words(key).length < 2 || !raw.replace(/ /g, '').includes(key.replace(/ /g, ''))) return false;
  const year = work.year;
  if (year !== null && entry.years.length > 0 && !entry.years.some((y) => Math.abs(y - year) <= 1)) return false;
  if (words(key).length >= 4) return true;
  const entryWords = new Set(words(raw));
  return work.authorships.some((authorship) => {
    const family = titleKey(authorship.name).split(' ').pop();
    return family !== undefined && family.length > 1 && entryWords.has(family);
  });
}

/**
 * Resolves reference entries the graph could not through the scholarly APIs: an entry without a DOI is matched on
 * Crossref by its text (`citesWork` decides), then the DOI — found or given — is looked up on OpenAlex for the work's
 * id, so that the stub is the node the work becomes when it is ingested. A failing call leaves its entry unresolved;
 * at most `max` entries are looked up, a few at a time.
 */
export function onlineReferenceResolver(
  lookup: ReferenceLookup,
  ctx: () => RequestContext,
  options: { max: number; concurrency: number },
): (entries: readonly ReferenceEntry[]) => Promise<Map<number, OnlineMatch>> {
  return async (entries) => {
    const request = ctx();
    const found = new Map<number, OnlineMatch>();
    const queue = entries.slice(0, options.max);
    const resolveOne = async (entry: ReferenceEntry): Promise<void> => {
      let match: OnlineMatch | null = null;
      if (!entry.doi) {
        const candidates = await lookup.bibliographic(request, entry.raw, 3).catch(() => []);
        const work = candidates.find((candidate) => citesWork(entry, candidate));
        if (work?.doi)
          match = { id: `doi:${work.doi}`, doi: work.doi, title: work.title, year: work.year, via: 'crossref' };
      }
      const doi = match?.doi ?? entry.doi;
      if (doi) {
        const work = await lookup.byDoi(request, doi).catch(() => null);
        if (work && /^W\d+$/.test(work.id)) {
          match = { id: work.id, doi, title: work.title ?? match?.title ?? null, year: work.year, via: 'openalex' };
        }
      }
      if (match) found.set(entry.index, match);
    };
    const workers = Array.from({ length: Math.max(1, options.concurrency) }, async () => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) await resolveOne(entry);
    });
    await Promise.all(workers);
    return found;
  };
}
