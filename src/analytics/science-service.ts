/** Science of science: the service that holds the measures of the citation graph (see ScienceService). */
import type { PaperFilter, PaperRow, VenueRow } from '../domain';
import { badInput, CitegraphError, ErrorCode } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import type { AnalyticsService } from './analytics-service';
import { isFiltered, paperFilterParams, queries } from '../graph/query-registry';
import { MAX_PAGE } from '../paging';
import { Bursts } from './bursts';
import { CitationImpact } from './citation-impact';
import { CitationNetworks, papersOf } from './citation-networks';
import { bradfordZones, fitLotka, type LotkaFit, nameKey } from './science-of-science';

/** The most productive people whose records are candidates for possible duplicates when no filter narrows them. */
export const DUPLICATE_CANDIDATES_WHOLE_GRAPH = 20_000;

export interface CitationPath {
  /** The papers from the first to the last. */
  papers: PaperRow[];
  /** For each step, whether the earlier paper of the chain cites the later one (else the later cites the earlier). */
  forward: boolean[];
}

/** An identified author record of the filtered papers, with its papers in the filter. */
interface AuthorNameRow {
  id: string;
  name: string;
  orcid: string | null;
  papers: number;
}

/** What two author records of one name share in the whole graph. */
interface PairEvidence {
  a: string;
  b: string;
  sharedCoauthors: number;
  sharedInstitutions: number;
}

/** Most papers a set-level query (prior and derivative works) takes. */
const MAX_SET = 200;
/** Deepest citation path searched. */
const MAX_DEPTH = 10;

const notFound = (what: string) => new CitegraphError(ErrorCode.NOT_FOUND, what);

/**
 * Science-of-science measures over the citation graph: prior and derivative works, citation paths, Lotka's and
 * Bradford's laws, possible duplicate authors and a person's profile here; citation impact (disruption, normalised
 * impact, sleeping beauties), bursts and networks (coupling, co-citation, clusters, maps, main path) in the services it
 * holds. Counting is done in Cypher, the measures are the pure functions of science-of-science.ts.
 */
export class ScienceService {
  /** Disruption, normalised impact and sleeping beauties. */
  readonly impact: CitationImpact;
  /** Bursts of topics and references. */
  readonly bursts: Bursts;
  /** Coupling, co-citation, clusters, maps and the main path. */
  readonly networks: CitationNetworks;

  constructor(
    private readonly executor: GraphExecutor,
    private readonly analytics: AnalyticsService,
  ) {
    this.impact = new CitationImpact(executor);
    this.bursts = new Bursts(executor);
    this.networks = new CitationNetworks(executor, analytics);
  }

  private checkSet(ids: readonly string[]): string[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badInput('give at least one paper id', { argument: 'ids' });
    if (unique.length > MAX_SET) throw badInput(`at most ${MAX_SET} papers`, { argument: 'ids' });
    return unique;
  }

  /** The works a set of papers cites most (outside the set), with how many of the set cite each. */
  async priorWorks(ids: readonly string[], first: number): Promise<Array<{ paper: PaperRow; count: number }>> {
    return this.executor.read(
      queries().priorWorks({ ids: this.checkSet(ids), limit: Math.min(Math.max(1, first), MAX_PAGE) }),
    );
  }

  /** The full papers citing the most papers of a set (outside it). */
  async derivativeWorks(ids: readonly string[], first: number): Promise<Array<{ paper: PaperRow; count: number }>> {
    return this.executor.read(
      queries().derivativeWorks({ ids: this.checkSet(ids), limit: Math.min(Math.max(1, first), MAX_PAGE) }),
    );
  }

  /**
   * The shortest chain of citations between two papers, at most `depth` steps: directed (each paper cites the next)
   * or either way. Null when there is none that short.
   */
  async citationPath(from: string, to: string, directed: boolean, depth: number): Promise<CitationPath | null> {
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) {
      throw badInput(`maxDepth must be a whole number in [1, ${MAX_DEPTH}]`, { argument: 'maxDepth' });
    }
    if (from === to) throw badInput('the two papers are the same', { argument: 'to' });
    const params = { from, to, depth };
    const [row] = await this.executor.read<{ ids: string[]; citing: string[] }>(
      directed ? queries().citationPathDirected(params) : queries().citationPathUndirected(params),
    );
    if (!row) return null;
    const papers = await papersOf(this.executor, row.ids);
    return {
      papers: row.ids.map((id) => papers.get(id)!),
      forward: row.citing.map((citing, index) => citing === row.ids[index]),
    };
  }

  /** Lotka's law over the identified authors of the filtered papers. */
  async lotka(filter: PaperFilter | null | undefined): Promise<LotkaFit> {
    const rows = await this.executor.read<{ papers: number; authors: number }>(
      // With no filter the stored per-person totals answer without reading every authorship.
      isFiltered(filter)
        ? queries().authorProductivity(paperFilterParams(filter))
        : queries().authorProductivityAll({}),
    );
    return fitLotka(rows.flatMap((row) => new Array<number>(row.authors).fill(row.papers)));
  }

  /** Bradford's zones of the venues of the filtered papers (papers without a venue are counted apart). */
  async bradford(filter: PaperFilter | null | undefined) {
    const rows = await this.executor.read<{ venue: VenueRow | null; papers: number }>(
      // With no filter the stored venue totals and the count of full papers answer without reading every paper.
      isFiltered(filter) ? queries().venuePaperCounts(paperFilterParams(filter)) : queries().venuePaperCountsAll({}),
    );
    const venues = new Map(rows.flatMap((row) => (row.venue ? [[row.venue.id, row.venue] as const] : [])));
    const zones = bradfordZones(rows.flatMap((row) => (row.venue ? [{ id: row.venue.id, papers: row.papers }] : [])));
    return {
      zones: zones.zones.map((zone) => ({
        zone: zone.zone,
        papers: zone.papers,
        venues: zone.venues.map((v) => ({ venue: venues.get(v.id)!, papers: v.papers })),
      })),
      multipliers: zones.multipliers,
      papersWithoutVenue: rows.find((row) => !row.venue)?.papers ?? 0,
    };
  }

  /**
   * Author records that may be one person: the same name key (family name and first initial, accents and case
   * aside), not told apart by ORCIDs (records sharing an ORCID are one person already; two different ORCIDs are two
   * people), and sharing at least one co-author or institution. Nothing stored is changed.
   */
  async possibleDuplicates(filter: PaperFilter | null | undefined, first: number) {
    const rows = await this.executor.read<AuthorNameRow>(
      // With no filter the candidates are the most productive people, read from the top of an index: reading every
      // authorship grows with the graph (1M works: 31 s).
      isFiltered(filter)
        ? queries().authorNames(paperFilterParams(filter))
        : queries().authorNamesTop({ limit: DUPLICATE_CANDIDATES_WHOLE_GRAPH }),
    );
    const evidence = await this.sameNameEvidence(rows);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const found = new Map<string, { key: string; ids: Set<string>; pairs: PairEvidence[] }>();
    for (const pair of evidence) {
      if (pair.sharedCoauthors + pair.sharedInstitutions === 0) continue;
      const key = nameKey(byId.get(pair.a)!.name)!;
      const group = found.get(key) ?? { key, ids: new Set<string>(), pairs: [] };
      group.ids.add(pair.a).add(pair.b);
      group.pairs.push(pair);
      found.set(key, group);
    }
    return [...found.values()]
      .map((group) => ({
        name: byId.get([...group.ids][0]!)!.name,
        authorIds: [...group.ids].sort(),
        pairs: group.pairs,
        evidence: group.pairs.reduce((sum, p) => sum + p.sharedCoauthors + p.sharedInstitutions, 0),
      }))
      .sort((a, b) => b.evidence - a.evidence || (a.name < b.name ? -1 : 1))
      .slice(0, Math.min(Math.max(1, first), MAX_PAGE));
  }

  /**
   * Pairs of author records of one name key (family name and first initial, accents and case aside) that ORCIDs do
   * not tell apart (two records with an ORCID each are one person or two already), with the co-authors and
   * institutions each pair shares in the whole graph; the eight most productive records of a name are paired.
   */
  private async sameNameEvidence(rows: readonly AuthorNameRow[]): Promise<PairEvidence[]> {
    const groups = new Map<string, AuthorNameRow[]>();
    for (const row of rows) {
      const key = nameKey(row.name);
      if (key) groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const pairs: string[][] = [];
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      const capped = members.sort((a, b) => b.papers - a.papers || (a.id < b.id ? -1 : 1)).slice(0, 8);
      for (let i = 0; i < capped.length; i += 1)
        for (let j = i + 1; j < capped.length; j += 1) {
          const [a, b] = [capped[i]!, capped[j]!];
          if (a.orcid && b.orcid) continue; // the same ORCID: one person; different: two
          pairs.push([a.id, b.id]);
        }
    }
    return pairs.length === 0
      ? []
      : this.executor.read<PairEvidence>(queries().authorPairEvidence({ pairs: pairs.slice(0, 5000) }));
  }

  /**
   * Lotka's law over the people of the filtered papers as ask counts people: records sharing an ORCID are one person,
   * and so are records of one name key sharing a co-author or an institution (the evidence possibleDuplicates lists),
   * each paper counted once per person. A person split over records would otherwise count as several authors of one
   * paper each. `lotka(filter)` merges by ORCID only, as the explorer's people are (docs/analytics.md).
   */
  async lotkaOfPeople(filter: PaperFilter | null | undefined): Promise<LotkaFit & { records: number }> {
    const rows = await this.executor.read<AuthorNameRow & { paperIds: string[] }>(
      queries().authorNames(paperFilterParams(filter)),
    );
    const parent = new Map(rows.map((row) => [row.id, row.id]));
    const root = (id: string): string => {
      let at = id;
      while (parent.get(at) !== at) at = parent.get(at)!;
      return at;
    };
    const orcidOf = new Map<string, string | null>(rows.map((row) => [row.id, row.orcid]));
    const join = (a: string, b: string) => {
      const [x, y] = [root(a), root(b)];
      if (x === y) return;
      const [ox, oy] = [orcidOf.get(x), orcidOf.get(y)];
      if (ox && oy && ox !== oy) return; // two ORCIDs: two people
      parent.set(y, x);
      orcidOf.set(x, ox ?? oy ?? null);
    };
    const byOrcid = new Map<string, string>();
    for (const row of rows)
      if (row.orcid) {
        const first = byOrcid.get(row.orcid);
        if (first) join(first, row.id);
        else byOrcid.set(row.orcid, row.id);
      }
    for (const pair of await this.sameNameEvidence(rows))
      if (pair.sharedCoauthors + pair.sharedInstitutions > 0) join(pair.a, pair.b);
    const papers = new Map<string, Set<string>>();
    for (const row of rows) {
      const person = root(row.id);
      const own = papers.get(person) ?? new Set<string>();
      for (const id of row.paperIds) own.add(id);
      papers.set(person, own);
    }
    return { ...fitLotka([...papers.values()].map((ids) => ids.size)), records: rows.length };
  }

  /**
   * Several author records taken as one person for a computation, stored data unchanged: the records given plus every
   * record sharing an ORCID with them; their distinct papers' metrics (h-indexes, citations, years) and co-authors.
   */
  async person(authorIds: readonly string[], coauthors: number) {
    const ids = [...new Set(authorIds)];
    if (ids.length === 0 || ids.length > 50) throw badInput('give 1 to 50 author ids', { argument: 'authorIds' });
    const given = await this.executor.read<{ author: { id: string; name?: string; orcid?: string | null } }>(
      queries().authorsByIds({ ids }),
    );
    if (given.length === 0) throw notFound('none of these authors is in the graph');
    const orcids = [...new Set(given.map((row) => row.author.orcid).filter((o): o is string => Boolean(o)))];
    const sameOrcid =
      orcids.length > 0
        ? await this.executor.read<{ id: string; name: string | null }>(queries().authorsByOrcid({ orcids }))
        : [];
    const all = [...new Set([...given.map((row) => row.author.id), ...sameOrcid.map((row) => row.id)])].sort();
    const names = [
      ...new Set([...given.map((row) => row.author.name), ...sameOrcid.map((row) => row.name)].filter(Boolean)),
    ] as string[];
    const [metrics, partners] = await Promise.all([
      this.analytics.people.personMetrics(all),
      this.analytics.people.personCoauthors(all, Math.min(Math.max(1, coauthors), MAX_PAGE)),
    ]);
    return {
      authorIds: all,
      names,
      metrics,
      coauthors: partners
        .filter((partner) => !partner.ids.some((id) => all.includes(id)))
        .map((partner) => ({
          authorIds: partner.ids,
          name: partner.name,
          orcid: partner.orcid ?? null,
          jointPapers: partner.count,
        })),
    };
  }
}
