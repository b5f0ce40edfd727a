/**
 * The main path of a citation network (Hummon and Doreian; Liu and Lu): search path counts over the acyclic network of
 * citations, then the global path or the key-route paths through the heaviest links.
 */

/** A citation between two papers of a collection: `citing` cites `cited`. */
export interface Citation {
  citing: string;
  cited: string;
}

export interface MainPathLink {
  cited: string;
  citing: string;
  /** The link's search path count. */
  weight: number;
}

export interface MainPath {
  /** Papers along the path (or the key-route subnetwork), oldest first (knowledge flows from cited to citing). */
  papers: string[];
  /** The search path count of each step of a global path (of each link, in link order, for key routes). */
  weights: number[];
  /** The links of the path or subnetwork, in the order of their cited paper, then citing paper. */
  links: MainPathLink[];
  /** Source-to-sink paths in the network (the SPC normalisation). */
  paths: number;
  /** Citations left out because they ran against the order of time (a paper citing a later one). */
  dropped: number;
  /** Each citation left out, with why (in the order the citations came). */
  droppedCitations: DroppedCitation[];
}

/**
 * Why a citation is left out of the acyclic network: the citing paper is of an earlier year than the one it cites
 * (LATER_YEAR), of the same year but an earlier publication date (LATER_DATE), or of the same year and date — or
 * without one — and a smaller id, so that only one direction between such papers is kept (SAME_DATE); a paper
 * without a year is ordered after every paper with one (NO_YEAR).
 */
export type DropReason = 'LATER_YEAR' | 'LATER_DATE' | 'SAME_DATE' | 'NO_YEAR';

export interface DroppedCitation extends Citation {
  reason: DropReason;
}

/** A paper of the network: its year and, when known, its publication date (ISO, YYYY-MM-DD). */
export interface PathPaper {
  id: string;
  year: number | null;
  publicationDate?: string | null;
}

/**
 * The order of time the network follows: year, then publication date within the year (a paper without a date after
 * those with one), then id; a paper without a year after every paper with one. A total order, so the network is
 * acyclic.
 */
function timeOrder(papers: readonly PathPaper[]) {
  const key = new Map(
    papers.map((p) => [
      p.id,
      { year: p.year ?? Number.MAX_SAFE_INTEGER, date: p.publicationDate && p.year !== null ? p.publicationDate : '~' },
    ]),
  );
  const earlier = (a: string, b: string) => {
    const x = key.get(a)!;
    const y = key.get(b)!;
    return x.year !== y.year ? x.year < y.year : x.date !== y.date ? x.date < y.date : a < b;
  };
  /** Why `citing → cited` runs against the order (only asked of a citation that does). */
  const reason = (citing: string, cited: string): DropReason => {
    const x = key.get(citing)!;
    const y = key.get(cited)!;
    if (x.year === Number.MAX_SAFE_INTEGER || y.year === Number.MAX_SAFE_INTEGER) return 'NO_YEAR';
    if (x.year !== y.year) return 'LATER_YEAR';
    return x.date !== y.date ? 'LATER_DATE' : 'SAME_DATE';
  };
  return { has: (id: string) => key.has(id), earlier, reason };
}

/**
 * The search-path-count network (Hummon and Doreian 1989; Liu and Lu 2012): arcs run from the cited to the citing
 * paper; a citation against the order of time (year, publication date, then id: `timeOrder`) is dropped, with its
 * reason, so that the network is acyclic. Each arc u→v weighs
 * SPC = N⁻(u)·N⁺(v), with N⁻(u) the paths from any source to u and N⁺(v) the paths from v to any sink. `before` is the
 * largest total SPC of a path from a source to each node (and the node it came from), `after` the same from each node
 * to a sink; ties go to the smaller id.
 */
function spcNetwork(papers: readonly PathPaper[], citations: readonly Citation[]) {
  const { has, earlier, reason } = timeOrder(papers);
  const out = new Map<string, string[]>();
  const into = new Map<string, string[]>();
  const dropped: DroppedCitation[] = [];
  const seen = new Set<string>();
  for (const { citing, cited } of citations) {
    if (!has(citing) || !has(cited) || citing === cited) continue;
    const key = `${cited}\u0000${citing}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!earlier(cited, citing)) {
      dropped.push({ citing, cited, reason: reason(citing, cited) });
      continue;
    }
    out.set(cited, [...(out.get(cited) ?? []), citing]);
    into.set(citing, [...(into.get(citing) ?? []), cited]);
  }
  for (const list of [...out.values(), ...into.values()]) list.sort();
  // Topological order is the order of time: every arc goes forward in it.
  const nodes = [...new Set([...out.keys(), ...into.keys()])].sort((a, b) => (earlier(a, b) ? -1 : 1));
  const minus = new Map<string, number>();
  for (const v of nodes) {
    const ins = into.get(v) ?? [];
    minus.set(v, ins.length === 0 ? 1 : ins.reduce((sum, u) => sum + minus.get(u)!, 0));
  }
  const plus = new Map<string, number>();
  for (const v of [...nodes].reverse()) {
    const outs = out.get(v) ?? [];
    plus.set(v, outs.length === 0 ? 1 : outs.reduce((sum, w) => sum + plus.get(w)!, 0));
  }
  const spc = (u: string, v: string) => minus.get(u)! * plus.get(v)!;
  const before = new Map<string, { total: number; next: string | null }>();
  for (const v of nodes) {
    let choice: { total: number; next: string | null } = { total: 0, next: null };
    for (const u of into.get(v) ?? []) {
      const total = before.get(u)!.total + spc(u, v);
      if (choice.next === null || total > choice.total) choice = { total, next: u };
    }
    before.set(v, choice);
  }
  const after = new Map<string, { total: number; next: string | null }>();
  for (const u of [...nodes].reverse()) {
    let choice: { total: number; next: string | null } = { total: 0, next: null };
    for (const v of out.get(u) ?? []) {
      const total = after.get(v)!.total + spc(u, v);
      if (choice.next === null || total > choice.total) choice = { total, next: v };
    }
    after.set(u, choice);
  }
  const sinks = nodes.filter((v) => (out.get(v) ?? []).length === 0);
  const paths = sinks.reduce((sum, v) => sum + minus.get(v)!, 0);
  const arcs = nodes.flatMap((u) => (out.get(u) ?? []).map((v) => ({ cited: u, citing: v, weight: spc(u, v) })));
  /** The best path through the arc u→v: the best way from a source into u, the arc, the best way from v to a sink. */
  const through = (u: string, v: string) => {
    const path = [u, v];
    for (let w = before.get(u)!.next; w !== null; w = before.get(w)!.next) path.unshift(w);
    for (let w = after.get(v)!.next; w !== null; w = after.get(w)!.next) path.push(w);
    return path;
  };
  return { nodes, sinks, before, spc, paths, arcs, dropped, through };
}

/**
 * The global main path (Hummon and Doreian 1989; Liu and Lu 2012) over the search-path-count network: the
 * source-to-sink path with the largest total SPC (ties: the smaller ids).
 */
export function globalMainPath(papers: readonly PathPaper[], citations: readonly Citation[]): MainPath {
  const net = spcNetwork(papers, citations);
  const dropped = { dropped: net.dropped.length, droppedCitations: net.dropped };
  if (net.nodes.length === 0) return { papers: [], weights: [], links: [], paths: 0, ...dropped };
  const end = net.sinks.reduce((a, b) => (net.before.get(b)!.total > net.before.get(a)!.total ? b : a));
  const path: string[] = [];
  for (let v: string | null = end; v !== null; v = net.before.get(v)!.next) path.unshift(v);
  const links = path.slice(1).map((v, i) => ({ cited: path[i]!, citing: v, weight: net.spc(path[i]!, v) }));
  return { papers: path, weights: links.map((l) => l.weight), links, paths: net.paths, ...dropped };
}

/**
 * The key-route main path (Liu and Lu 2012, *JASIST* 63(3), with global search): the `keyRoutes` arcs of largest SPC
 * (ties: the smaller cited, then citing id) are the key routes; each is extended backward from its cited paper to a
 * source and forward from its citing paper to a sink along the paths of largest total SPC. The union of these paths
 * is the main-path network, which keeps the parallel streams a single global path has to choose between.
 */
export function keyRouteMainPath(
  papers: readonly PathPaper[],
  citations: readonly Citation[],
  keyRoutes: number,
): MainPath {
  const net = spcNetwork(papers, citations);
  const keys = [...net.arcs]
    .sort(
      (a, b) =>
        b.weight - a.weight ||
        (a.cited < b.cited ? -1 : a.cited > b.cited ? 1 : a.citing < b.citing ? -1 : a.citing > b.citing ? 1 : 0),
    )
    .slice(0, Math.max(1, keyRoutes));
  const members = new Set<string>();
  const linkKeys = new Set<string>();
  for (const key of keys) {
    const path = net.through(key.cited, key.citing);
    path.forEach((id, i) => {
      members.add(id);
      if (i > 0) linkKeys.add(`${path[i - 1]}\u0000${id}`);
    });
  }
  const order = net.nodes.filter((id) => members.has(id));
  const rank = new Map(order.map((id, i) => [id, i]));
  const links = [...linkKeys]
    .map((k) => k.split('\u0000') as [string, string])
    .map(([cited, citing]) => ({ cited, citing, weight: net.spc(cited, citing) }))
    .sort((a, b) => rank.get(a.cited)! - rank.get(b.cited)! || rank.get(a.citing)! - rank.get(b.citing)!);
  return {
    papers: order,
    weights: links.map((l) => l.weight),
    links,
    paths: net.paths,
    dropped: net.dropped.length,
    droppedCitations: net.dropped,
  };
}
