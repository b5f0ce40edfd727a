import type { PaperFilter } from '../domain';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { paperFilterParams, queries } from '../graph/query-registry';
import {
  BIBLIOGRAPHY_EXTENSIONS,
  BIBLIOGRAPHY_MEDIA_TYPES,
  type BibliographyFormat,
  type BibliographyRecord,
  formatBibliography,
} from './bibliography';
import type { CatalogService } from './catalog-service';

/** Most papers one export holds (ids given or papers of a filter). */
export const MAX_EXPORT = 5000;

export interface PaperFile {
  format: BibliographyFormat;
  mediaType: string;
  fileName: string;
  /** Papers in the file. */
  papers: number;
  /** Ids asked for that are not full papers of the graph (left out, in the order asked). */
  missing: string[];
  content: string;
}

/** Paper lists as files (src/catalog/bibliography.ts): the papers of given ids, or of a filter. */
export class PaperExportService {
  constructor(
    private readonly executor: GraphExecutor,
    private readonly catalog: CatalogService,
  ) {}

  /**
   * The papers of `ids` in that order, or else those of `filter` (the most cited inside the graph first), at most
   * `first`, as a file. Stubs (works known only as references) are left out and named in `missing`.
   */
  async export(
    source: { ids?: readonly string[] | null; filter?: PaperFilter | null },
    format: BibliographyFormat,
    first = 1000,
  ): Promise<PaperFile> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_EXPORT) {
      throw badInput(`first must be a whole number in [1, ${MAX_EXPORT}], got ${first}`, { argument: 'first' });
    }
    const given = source.ids ?? null;
    if (given !== null && source.filter) throw badInput('give ids or a filter, not both', { argument: 'ids' });
    let ids: string[];
    if (given !== null) {
      if (given.length > first)
        throw badInput(`at most ${first} ids (first), got ${given.length}`, { argument: 'ids' });
      ids = [...new Set(given)];
    } else {
      const rows = await this.executor.read<{ id: string }>(
        queries().filterPapers({ ...paperFilterParams(source.filter ?? null), limit: first }),
      );
      ids = rows.map((row) => row.id);
    }
    const records = await this.records(ids);
    const found = new Set(records.map((r) => r.id));
    return {
      format,
      mediaType: BIBLIOGRAPHY_MEDIA_TYPES[format],
      fileName: `citegraph-papers.${BIBLIOGRAPHY_EXTENSIONS[format]}`,
      papers: records.length,
      missing: ids.filter((id) => !found.has(id)),
      content: formatBibliography(records, format),
    };
  }

  /** The full papers among `ids`, in that order, with their authors and venues. */
  async records(ids: readonly string[]): Promise<BibliographyRecord[]> {
    const papers = (await this.catalog.papersByIds(ids)).filter((p) => !p.stub);
    const shown = papers.map((p) => p.id);
    const [authors, venues] = await Promise.all([
      this.catalog.authorsOfPapers(shown),
      this.catalog.venuesOfPapers(shown),
    ]);
    return papers.map((p) => {
      const venue = venues.get(p.id);
      return {
        id: p.id,
        doi: p.doi ?? null,
        title: p.title ?? null,
        abstract: p.abstract ?? null,
        year: p.year ?? null,
        publicationDate: p.publicationDate ?? null,
        type: p.type ?? null,
        venue: venue?.name ?? null,
        authors: (authors.get(p.id) ?? [])
          .filter((a) => !a.author.anonymous || a.author.name)
          .map((a) => ({ name: a.author.name ?? '', orcid: a.author.orcid ?? null }))
          .filter((a) => a.name !== ''),
        citedByCount: p.citedByCount ?? null,
        pmid: p.pmid ?? null,
        volume: p.volume ?? null,
        issue: p.issue ?? null,
        firstPage: p.firstPage ?? null,
        lastPage: p.lastPage ?? null,
        publisher: venue?.publisher ?? null,
        issn: [...new Set([venue?.issnL, ...(venue?.issn ?? [])].filter((x): x is string => Boolean(x)))],
        language: p.language ?? null,
        license: p.license ?? null,
        keywords: [...(p.keywords ?? [])],
      };
    });
  }
}
