/**
 * People behind author records: a name resolved to the records of one person (ORCID, then records of a fitting name
 * sharing co-authors), their metrics and co-authors, and rankings of records merged into people.
 */
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';
import { MAX_PAGE } from '../paging';
import type { AuthorRow } from '../domain';
import { citationMetrics, mergeByOrcid } from './analytics-math';
import { foldName, fullNameKey, nameFit, nameParts, withoutAffixes } from './person-names';

/**
 * One person as answers name them: every author node sharing the ORCID of the best match is the same person; authors
 * of the same name without that ORCID are `namesakes` — possibly the same person, never silently merged or listed twice.
 */
export interface Person {
  name: string;
  orcid: string | null;
  ids: string[];
  papers: number;
  /** Records of a fitting name, without a conflicting ORCID, that share a co-author with the person: counted in. */
  linked: Array<{ ids: string[]; name: string; papers: number; by: LinkEvidence }>;
  namesakes: Array<{ id: string; name: string; papers: number }>;
}

/**
 * Why a record is counted as the person: a co-author in common, or the same full name and a venue or a specific
 * concept in common.
 */
export type LinkEvidence = 'co-authors' | 'full name and venue' | 'full name and concept';

/**
 * Largest share of the graph's papers a concept may be carried by and still tell a field apart: "Borderline
 * personality disorder" in a graph of many fields links two records of one full name, "Medicine" never does, and
 * neither does the graph's own subject when the whole graph is one field.
 */
export const SPECIFIC_CONCEPT_SHARE = 0.05;
/** A concept on at most this many papers is specific whatever the graph's size (a small graph's share is coarse). */
export const RARE_CONCEPT_PAPERS = 20;

/** The people of the graph (see Person). */
export class People {
  constructor(private readonly executor: GraphExecutor) {}

  /** The person a name means (see Person), or null when no identified author has that name. */
  async resolvePerson(name: string): Promise<Person | null> {
    const rows = await this.authorsFitting(name.trim());
    if (rows.length === 0) return null;
    // Records sharing an ORCID with a match are the same person even under another spelling ("M. Shima").
    const orcids = [...new Set(rows.map((row) => row.author.orcid).filter((orcid): orcid is string => !!orcid))];
    const sameOrcid = orcids.length
      ? await this.executor.read<{ id: string; name: string | null; orcid: string | null; count: number }>(
          queries().authorsByOrcid({ orcids }),
        )
      : [];
    const byId = new Map(
      rows.map((row) => [
        row.author.id,
        { id: row.author.id, name: row.author.name ?? null, orcid: row.author.orcid ?? null, count: row.papers },
      ]),
    );
    for (const row of sameOrcid) if (!byId.has(row.id)) byId.set(row.id, row);
    const people = mergeByOrcid([...byId.values()].sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)));
    const best = people[0]!;
    const linked = await this.linkedRecords(best, people.slice(1));
    const linkedIds = new Set(linked.flatMap(({ group }) => group.ids));
    return {
      // Named as people write the name: a record's titles and degrees ("F.A.C.P. … M.D.") are not part of it.
      name: best.name ? withoutAffixes(best.name) : best.id,
      orcid: best.orcid ?? null,
      ids: [...best.ids, ...linkedIds],
      papers: best.count + linked.reduce((sum, { group }) => sum + group.count, 0),
      linked: linked.map(({ group, by }) => ({
        ids: group.ids,
        name: group.name ?? group.ids[0]!,
        papers: group.count,
        by,
      })),
      // Every other record that fits the name as asked and is not counted in, so the answer can say whom it left out.
      namesakes: people
        .slice(1)
        .filter((other) => !other.ids.some((id) => linkedIds.has(id)))
        .map((other) => ({ id: other.id, name: other.name ?? other.id, papers: other.count })),
    };
  }

  /**
   * The other records of a fitting name that are the same person by evidence: no ORCID other than the person's, and
   * a co-author in common with the person as merged so far (record linkage by shared co-authors; repeated until no
   * record joins), or the person's full name (with its middle initials or a double-barrelled surname) and a venue or a specific concept
   * (SPECIFIC_CONCEPT_SHARE) in common. A namesake with none of these stays apart.
   */
  private async linkedRecords<G extends { ids: string[]; orcid?: string | null; name: string | null; count: number }>(
    best: G,
    others: readonly G[],
  ): Promise<Array<{ group: G; by: LinkEvidence }>> {
    const candidates = others.filter((group) => !group.orcid || !best.orcid || group.orcid === best.orcid);
    if (candidates.length === 0) return [];
    const all = [...best.ids, ...candidates.flatMap((group) => group.ids)];
    const rows = await this.executor.read<{
      id: string;
      coauthors: string[];
      names: Array<string | null>;
      venues: string[];
      topics: string[];
    }>(
      queries().coauthorIds({
        ids: all,
        maxTopicShare: SPECIFIC_CONCEPT_SHARE,
        rareTopicPapers: RARE_CONCEPT_PAPERS,
      }),
    );
    const records = new Set(all);
    const own = new Set([best.name, ...candidates.map((group) => group.name)].map((name) => fullNameKey(name ?? '')));
    // A co-author is one by id, or by full name (first given name and surname): records without an OpenAlex id
    // ("anon:…") have co-authors without one, so "Giuseppe Filardo" on such a paper is still a shared co-author.
    const coauthorsOf = new Map(
      rows.map((row) => [
        row.id,
        [
          ...row.coauthors.filter((id) => !records.has(id)),
          ...row.names.map((name) => fullNameKey(name ?? '')).filter((key) => key !== null && !own.has(key)),
        ] as string[],
      ]),
    );
    const venuesOf = new Map(rows.map((row) => [row.id, row.venues]));
    const topicsOf = new Map(rows.map((row) => [row.id, row.topics]));
    const circle = new Set(best.ids.flatMap((id) => coauthorsOf.get(id) ?? []));
    const venues = new Set(best.ids.flatMap((id) => venuesOf.get(id) ?? []));
    const topics = new Set(best.ids.flatMap((id) => topicsOf.get(id) ?? []));
    // The same name written out in full, middle initials and all ("Andreas H. Gomoll") or double-barrelled
    // ("Elizabeth Barrett-Connor"), in a venue the person
    // publishes in, or on a specific concept the person works on, is the person too: a namesake would have to share
    // the rare full name and the field.
    const spelled = exactName(best.name);
    const linked: Array<{ group: G; by: LinkEvidence }> = [];
    let pending = [...candidates];
    for (let changed = true; changed;) {
      changed = false;
      for (const group of pending) {
        const theirs = group.ids.flatMap((id) => coauthorsOf.get(id) ?? []);
        const theirVenues = group.ids.flatMap((id) => venuesOf.get(id) ?? []);
        const theirTopics = group.ids.flatMap((id) => topicsOf.get(id) ?? []);
        const byCoauthor = theirs.some((id) => circle.has(id));
        const sameName = spelled !== null && exactName(group.name) === spelled;
        const byVenue = sameName && theirVenues.some((v) => venues.has(v));
        const byConcept = sameName && theirTopics.some((t) => topics.has(t));
        if (!byCoauthor && !byVenue && !byConcept) continue;
        linked.push({
          group,
          by: byCoauthor ? 'co-authors' : byVenue ? 'full name and venue' : 'full name and concept',
        });
        for (const id of theirs) circle.add(id);
        for (const id of theirVenues) venues.add(id);
        for (const id of theirTopics) topics.add(id);
        changed = true;
      }
      pending = pending.filter((group) => !linked.some((entry) => entry.group === group));
    }
    return linked;
  }

  /**
   * The author records a named person can be: those whose surname is the name's and whose first given name fits it
   * (equal, or an initial of it; "Marsha Linehan" finds "Marsha M. Linehan", "Kirschbaum C" finds "Clemens
   * Kirschbaum"), the best fit only; the records whose name contains the text as written when none fits.
   */
  private async authorsFitting(name: string): Promise<Array<{ author: AuthorRow; papers: number }>> {
    const asked = nameParts(name);
    const surname = asked?.surname.replace(/[^a-z0-9]/g, '') ?? '';
    if (!asked || surname.length < 2) return this.authorsByName(name, 50);
    // A double-barrelled surname is two words to the index ("Jiménez-Yuste"), each allowed one edit for the accents
    // a question may drop.
    const parts = asked.surname.split(/[^a-z0-9]+/).filter((part) => part.length >= 2);
    const fuzzy = (word: string) => (word.length >= 5 ? `(${word} OR ${word}~1)` : word);
    const query = parts.length > 1 ? parts.map(fuzzy).join(' AND ') : fuzzy(surname);
    const rows = await this.executor.read<{ author: AuthorRow; papers: number }>(
      queries().authorsBySurname({ query, scan: 500 }),
    );
    const fits = rows.map((row) => {
      const stored = nameParts(row.author.name ?? '');
      return { row, fit: stored ? nameFit(asked, stored) : 0 };
    });
    const best = Math.max(0, ...fits.map((f) => f.fit));
    if (best === 0) return this.authorsByName(name, 50);
    return fits.filter((f) => f.fit === best).map((f) => f.row);
  }

  /** Metrics of one person over all of their author nodes (papers counted once). */
  async personMetrics(ids: readonly string[]) {
    const [row] = await this.executor.read<{
      internal: number[];
      global: number[];
      firstYear: number | null;
      lastYear: number | null;
      topPaperIds: string[];
    }>(queries().personMetrics({ ids: [...ids] }));
    return { ...citationMetrics(row), topPaperIds: row?.topPaperIds ?? [] };
  }

  /**
   * Author rows of a ranking as people: records sharing an ORCID are one person (mergeByOrcid), and so are records of
   * one full name without conflicting ORCIDs that share a co-author or an institution — the linkage rule by which a
   * named person is resolved — their counts added. A namesake with no such link stays apart, flagged `possiblySame`.
   */
  async peopleOf<
    T extends { id: string; name: string | null; orcid: string | null; count: number; paperIds: string[] },
  >(rows: readonly T[]): Promise<Array<T & { ids: string[]; possiblySame: string[] }>> {
    const people = mergeByOrcid(rows);
    const owner = new Map(people.flatMap((person) => person.ids.map((id) => [id, person] as const)));
    const pairs: string[][] = [];
    for (const person of people)
      for (const id of person.possiblySame) {
        const other = owner.get(id);
        if (other && person.id < other.id && !(person.orcid && other.orcid)) pairs.push([person.id, other.id]);
      }
    if (pairs.length === 0) return people;
    const evidence = await this.executor.read<{
      a: string;
      b: string;
      sharedCoauthors: number;
      sharedInstitutions: number;
    }>(queries().authorPairEvidence({ pairs: pairs.slice(0, 500) }));
    const into = new Map<(typeof people)[number], (typeof people)[number]>();
    const root = (person: (typeof people)[number]): (typeof people)[number] => {
      let at = person;
      while (into.has(at)) at = into.get(at)!;
      return at;
    };
    for (const pair of evidence) {
      if (pair.sharedCoauthors + pair.sharedInstitutions === 0) continue;
      const [a, b] = [root(owner.get(pair.a)!), root(owner.get(pair.b)!)];
      if (a === b || (a.orcid && b.orcid)) continue;
      const [keep, merged] = a.count >= b.count ? [a, b] : [b, a];
      keep.count += merged.count;
      keep.ids.push(...merged.ids);
      keep.orcid = keep.orcid ?? merged.orcid;
      keep.paperIds = [...new Set([...keep.paperIds, ...merged.paperIds])];
      into.set(merged, keep);
    }
    return people
      .filter((person) => !into.has(person))
      .map((person) => ({ ...person, possiblySame: person.possiblySame.filter((id) => !person.ids.includes(id)) }))
      .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
  }

  /** Identified co-authors of one person (all of their author nodes), merged by ORCID. */
  async personCoauthors(ids: readonly string[], limit: number) {
    const rows = await this.executor.read<{
      id: string;
      name: string | null;
      orcid: string | null;
      count: number;
      paperIds: string[];
    }>(queries().personCoauthors({ ids: [...ids], limit: Math.min(limit * 4, MAX_PAGE) }));
    // Co-author records of one name and no conflicting ORCID share a co-author — this person — so by the linkage rule
    // of resolvePerson they are one person: counted together, the records kept in `ids`.
    const people: Array<ReturnType<typeof mergeByOrcid<(typeof rows)[number]>>[number]> = [];
    const byName = new Map<string, (typeof people)[number]>();
    for (const coauthor of mergeByOrcid(rows)) {
      const key = coauthor.name
        ? foldName(coauthor.name)
            .replace(/[^a-z]+/g, ' ')
            .trim()
        : '';
      const into = key ? byName.get(key) : undefined;
      if (into && (!into.orcid || !coauthor.orcid || into.orcid === coauthor.orcid)) {
        into.count += coauthor.count;
        into.ids.push(...coauthor.ids);
        into.orcid = into.orcid ?? coauthor.orcid;
        into.paperIds = [...new Set([...into.paperIds, ...coauthor.paperIds])];
        into.possiblySame = into.possiblySame.filter((id) => !coauthor.ids.includes(id));
        continue;
      }
      const own = { ...coauthor, ids: [...coauthor.ids] };
      if (key) byName.set(key, own);
      people.push(own);
    }
    return people
      .map((person) => ({
        ...person,
        possiblySame: person.possiblySame.filter((id) => !person.ids.includes(id)),
      }))
      .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id))
      .slice(0, limit);
  }

  /** Identified authors whose name contains the given text, most productive first. */
  authorsByName(name: string, limit: number): Promise<Array<{ author: AuthorRow; papers: number }>> {
    return this.executor.read(queries().authorsByName({ name, limit: Math.min(limit, MAX_PAGE) }));
  }
}

/**
 * A name as written out in full with a middle name or initial ("andreas h gomoll") or with a double-barrelled surname
 * ("elizabeth barrett-connor"), else null (too common to link by).
 */
function exactName(name: string | null): string | null {
  const parts = nameParts(name ?? '');
  if (!parts || parts.given[0]!.length < 2) return null;
  if (parts.given.length < 2 && !parts.surname.includes('-')) return null;
  return `${parts.given.join(' ')} ${parts.surname}`;
}
