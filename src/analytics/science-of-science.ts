/**
 * Measures of the science of science, as pure functions of counts the graph gives (src/analytics/science-service.ts
 * runs the queries). Each follows the paper that defined it; docs/analytics.md cites them.
 */

/** The papers around a focal paper that the CD index counts, by what they cite. */
export interface DisruptionCounts {
  /** Cite the focal paper and none of its references (n_i). */
  focalOnly: number;
  /** Cite the focal paper and at least one of its references (n_j). */
  both: number;
  /** Cite a reference of the focal paper but not the focal paper (n_k). */
  referencesOnly: number;
}

/**
 * The CD index of Funk and Owen-Smith (2017), in the form of Wu, Wang and Evans (2019): over the n papers that cite
 * the focal paper or its references, CD = (1/n) Σ (−2·f_i·b_i + f_i) = (n_i − n_j) / (n_i + n_j + n_k), where f_i is
 * whether paper i cites the focal paper and b_i whether it cites one of its references. +1: everything after it
 * cites it alone (disruptive); −1: everything cites it with its references (consolidating). Null when n is 0.
 */
export function cdIndex(counts: DisruptionCounts): number | null {
  const n = counts.focalOnly + counts.both + counts.referencesOnly;
  return n === 0 ? null : (counts.focalOnly - counts.both) / n;
}

/** Lotka's law fitted to authors' productivity: y(x) = C / x^n, x papers per author, y authors with x papers. */
export interface LotkaFit {
  /** Authors with each number of papers, ascending by papers. */
  distribution: Array<{ papers: number; authors: number }>;
  /** The fitted exponent n (Lotka found about 2). */
  exponent: number | null;
  /** The fitted share of authors with one paper, C (as a fraction of all authors). */
  constant: number | null;
  /** Authors counted. */
  authors: number;
}

/**
 * Fits Lotka's law (Lotka 1926) by linear least squares on log10(x), log10(y/N) — Pao's (1985) method — over the
 * productivity classes x = 1 … the largest x at which a class is not empty; the points are the observed classes.
 * Needs two classes or more.
 */
export function fitLotka(papersPerAuthor: readonly number[]): LotkaFit {
  const counts = new Map<number, number>();
  for (const papers of papersPerAuthor) if (papers > 0) counts.set(papers, (counts.get(papers) ?? 0) + 1);
  const distribution = [...counts.entries()]
    .map(([papers, authors]) => ({ papers, authors }))
    .sort((a, b) => a.papers - b.papers);
  const total = papersPerAuthor.filter((p) => p > 0).length;
  if (distribution.length < 2) return { distribution, exponent: null, constant: null, authors: total };
  const xs = distribution.map((d) => Math.log10(d.papers));
  const ys = distribution.map((d) => Math.log10(d.authors / total));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
  });
  const slope = sxy / sxx;
  return { distribution, exponent: -slope, constant: 10 ** (my - slope * mx), authors: total };
}

/** Bradford's zones: venues ranked by papers, cut into three zones of about a third of the papers each. */
export interface BradfordZones {
  zones: Array<{ zone: number; venues: Array<{ id: string; papers: number }>; papers: number }>;
  /** Venues in zone 2 over zone 1, zone 3 over zone 2: about equal under Bradford's law (k in 1 : k : k²). */
  multipliers: [number | null, number | null];
}

/**
 * Bradford's law of scattering (Bradford 1934): rank venues by the papers they carry and cut the ranking where the
 * cumulative papers pass one third and two thirds of the total; zone 1 is the core. A venue is in the zone in which
 * its cumulative count ends (ties by id).
 */
export function bradfordZones(venues: ReadonlyArray<{ id: string; papers: number }>): BradfordZones {
  const ranked = venues
    .filter((v) => v.papers > 0)
    .slice()
    .sort((a, b) => b.papers - a.papers || (a.id < b.id ? -1 : 1));
  const total = ranked.reduce((sum, v) => sum + v.papers, 0);
  const zones = [1, 2, 3].map((zone) => ({ zone, venues: [] as Array<{ id: string; papers: number }>, papers: 0 }));
  let cumulative = 0;
  for (const venue of ranked) {
    // The zone the venue's first paper falls in: a large core venue does not spill into zone 2.
    const zone = Math.min(2, Math.floor((3 * cumulative) / Math.max(1, total)));
    zones[zone]!.venues.push(venue);
    zones[zone]!.papers += venue.papers;
    cumulative += venue.papers;
  }
  const ratio = (a: number, b: number) => (a === 0 ? null : b / a);
  return {
    zones,
    multipliers: [
      ratio(zones[0]!.venues.length, zones[1]!.venues.length),
      ratio(zones[1]!.venues.length, zones[2]!.venues.length),
    ],
  };
}

/** A burst: a run of years in the high state, with its strength (the cost saved by explaining it as a burst). */
export interface Burst {
  start: number;
  end: number;
  strength: number;
}

/**
 * Kleinberg's (2003) two-state burst automaton for batched arrivals: in year t, r_t of d_t documents are relevant.
 * State 0 emits relevant documents at the base rate p0 = Σr/Σd, state 1 at p1 = min(s·p0, 0.9999). The cost of a
 * year in state i is −ln[C(d_t, r_t) p_i^r_t (1 − p_i)^(d_t − r_t)]; moving up costs γ·ln(T), moving down nothing.
 * The least-cost state sequence (Viterbi) gives the bursts: maximal runs of state 1, each with the strength
 * Σ (cost in state 0 − cost in state 1) over its years. Defaults as Kleinberg's: s = 2, γ = 1.
 */
export function kleinbergBursts(
  series: ReadonlyArray<{ year: number; relevant: number; total: number }>,
  options: { s?: number; gamma?: number } = {},
): Burst[] {
  const points = series.filter((p) => p.total > 0).sort((a, b) => a.year - b.year);
  const relevant = points.reduce((sum, p) => sum + p.relevant, 0);
  const total = points.reduce((sum, p) => sum + p.total, 0);
  if (points.length === 0 || relevant === 0 || relevant === total) return [];
  const p0 = relevant / total;
  const p1 = Math.min((options.s ?? 2) * p0, 0.9999);
  const up = (options.gamma ?? 1) * Math.log(points.length);
  const logChoose = (n: number, k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k);
  const cost = (p: number, point: { relevant: number; total: number }) =>
    -(
      logChoose(point.total, point.relevant) +
      point.relevant * Math.log(p) +
      (point.total - point.relevant) * Math.log(1 - p)
    );
  // Viterbi over two states, starting in state 0.
  let best = [0, Infinity];
  const from: Array<[number, number]> = [];
  for (const point of points) {
    const c0 = cost(p0, point);
    const c1 = cost(p1, point);
    const to0 = best[0]! <= best[1]! ? ([best[0]!, 0] as const) : ([best[1]!, 1] as const);
    const to1 = best[0]! + up <= best[1]! ? ([best[0]! + up, 0] as const) : ([best[1]!, 1] as const);
    from.push([to0[1], to1[1]]);
    best = [to0[0] + c0, to1[0] + c1];
  }
  const states: number[] = new Array<number>(points.length);
  let state = best[0]! <= best[1]! ? 0 : 1;
  for (let t = points.length - 1; t >= 0; t -= 1) {
    states[t] = state;
    state = from[t]![state]!;
  }
  const bursts: Burst[] = [];
  for (let t = 0; t < points.length; t += 1) {
    if (states[t] !== 1) continue;
    let end = t;
    let strength = 0;
    while (end < points.length && states[end] === 1) {
      strength += cost(p0, points[end]!) - cost(p1, points[end]!);
      end += 1;
    }
    bursts.push({ start: points[t]!.year, end: points[end - 1]!.year, strength });
    t = end - 1;
  }
  return bursts;
}

const factorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = factorials.length; i <= n; i += 1) factorials[i] = factorials[i - 1]! + Math.log(i);
  return factorials[n]!;
}

/**
 * The terms that set a cluster apart: frequent in its titles and rare in the others' (a term's share of the cluster's
 * titles times log(nodes / titles with it)), each in at least two titles of the cluster.
 */
export function distinctiveTerms(
  clusterTitles: readonly string[][],
  allTitles: readonly string[][],
  first: number,
): string[] {
  const df = new Map<string, number>();
  for (const terms of allTitles) for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const tf = new Map<string, number>();
  for (const terms of clusterTitles) for (const term of new Set(terms)) tf.set(term, (tf.get(term) ?? 0) + 1);
  return [...tf.entries()]
    .filter(([, n]) => n >= 2)
    .map(([term, n]) => ({
      term,
      score: (n / clusterTitles.length) * Math.log(allTitles.length / (df.get(term) ?? 1)),
    }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1))
    .slice(0, first)
    .map((t) => t.term);
}

export interface Beauty {
  /** The beauty coefficient B. */
  coefficient: number;
  /** Years after publication of the first citation peak (t_m) and of awakening (t_a). */
  peakAfter: number;
  awakeningAfter: number;
}

/**
 * The beauty coefficient of Ke, Ferrara, Radicchi and Flammini (2015), PNAS 112(24): with c_t the citations in year t
 * after publication (t = 0 the publication year) and t_m the first year of the maximum, the reference line runs from
 * (0, c_0) to (t_m, c_tm) and B = Σ_{t=0..t_m} (l_t − c_t) / max(1, c_t). The awakening year t_a is the t ≤ t_m
 * farthest from that line. B is 0 (and t_a = 0) when the peak is the publication year.
 */
export function beautyCoefficient(citations: readonly number[]): Beauty {
  if (citations.length === 0) return { coefficient: 0, peakAfter: 0, awakeningAfter: 0 };
  const peak = Math.max(...citations);
  const tm = citations.indexOf(peak);
  if (tm === 0) return { coefficient: 0, peakAfter: 0, awakeningAfter: 0 };
  const c0 = citations[0]!;
  const slope = (peak - c0) / tm;
  let coefficient = 0;
  let awakening = 0;
  let farthest = -1;
  const norm = Math.sqrt((peak - c0) ** 2 + tm ** 2);
  for (let t = 0; t <= tm; t += 1) {
    const ct = citations[t]!;
    coefficient += (slope * t + c0 - ct) / Math.max(1, ct);
    const distance = Math.abs((peak - c0) * t - tm * ct + tm * c0) / norm;
    if (distance > farthest) {
      farthest = distance;
      awakening = t;
    }
  }
  return { coefficient, peakAfter: tm, awakeningAfter: awakening };
}

/**
 * A key under which two spellings of one person's name meet: accents, case and punctuation dropped, the family name
 * (last word) with the first initial — "José M. García" and "Jose Garcia" share "garcia j".
 */
export function nameKey(name: string): string | null {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\s-]+/gu, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
  if (words.length < 2) return null;
  return `${words[words.length - 1]} ${words[0]![0]}`;
}

/**
 * A seeded generator (mulberry32): the same seed gives the same sequence on every platform — Louvain visits nodes in
 * this order (the same seed, the same clusters), and the synthetic graphs of scripts/tools/synthetic-works are drawn from it.
 */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
