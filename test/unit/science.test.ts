import { bradfordZones, cdIndex, fitLotka, kleinbergBursts } from '../../src/analytics/science-of-science';

describe('science-of-science measures, computed by hand', () => {
  it('CD index: (focal only − both) / all that cite the paper or its references', () => {
    // 3 papers cite only the focal paper, 1 cites it with a reference, 4 cite only its references: (3 − 1) / 8.
    expect(cdIndex({ focalOnly: 3, both: 1, referencesOnly: 4 })).toBe(0.25);
    expect(cdIndex({ focalOnly: 5, both: 0, referencesOnly: 0 })).toBe(1);
    expect(cdIndex({ focalOnly: 0, both: 4, referencesOnly: 0 })).toBe(-1);
    expect(cdIndex({ focalOnly: 0, both: 0, referencesOnly: 0 })).toBeNull();
  });

  it("Lotka: an exact inverse-square distribution fits n = 2 and C = the one-paper authors' share", () => {
    // 64 authors with 1 paper, 16 with 2, 4 with 4, 1 with 8: y = 64 / x².
    const authors = [...Array(64).fill(1), ...Array(16).fill(2), ...Array(4).fill(4), 8];
    const fit = fitLotka(authors);
    expect(fit.distribution).toEqual([
      { papers: 1, authors: 64 },
      { papers: 2, authors: 16 },
      { papers: 4, authors: 4 },
      { papers: 8, authors: 1 },
    ]);
    expect(fit.exponent).toBeCloseTo(2, 10);
    expect(fit.constant).toBeCloseTo(64 / 85, 10);
    expect(fit.authors).toBe(85);
    expect(fitLotka([1, 1, 1]).exponent).toBeNull(); // one class: nothing to fit
  });

  it('Bradford: venues cut where the cumulative papers pass one and two thirds', () => {
    const venues = [
      { id: 'A', papers: 10 },
      { id: 'B', papers: 5 },
      { id: 'C', papers: 3 },
      { id: 'D', papers: 3 },
      { id: 'E', papers: 2 },
      { id: 'F', papers: 2 },
      ...['G', 'H', 'I', 'J', 'K'].map((id) => ({ id, papers: 1 })),
    ];
    const { zones, multipliers } = bradfordZones(venues);
    // 32 papers: A starts at 0 (zone 1); B at 10, C at 15, D at 18 (zone 2, below 2·32/3); E at 21 onwards zone 3.
    expect(zones.map((z) => z.venues.map((v) => v.id).join(''))).toEqual(['A', 'BCD', 'EFGHIJK']);
    expect(zones.map((z) => z.papers)).toEqual([10, 11, 9]);
    expect(multipliers).toEqual([3, 7 / 3]);
  });

  it('Kleinberg: a run of years at six times the base rate is one burst, the quiet years are not', () => {
    const series = Array.from({ length: 12 }, (_, i) => ({
      year: 2000 + i,
      total: 100,
      relevant: i >= 5 && i <= 7 ? 30 : 5,
    }));
    const bursts = kleinbergBursts(series);
    expect(bursts.map((b) => [b.start, b.end])).toEqual([[2005, 2007]]);
    // The strength is what the burst state saves over the base state in those years: positive, and by hand
    // Σ_t [r ln(p1/p0) + (d − r) ln((1 − p1)/(1 − p0))] with p0 = (9·5 + 3·30)/1200, p1 = 2·p0.
    const p0 = 135 / 1200;
    const p1 = 2 * p0;
    const perYear = 30 * Math.log(p1 / p0) + 70 * Math.log((1 - p1) / (1 - p0));
    expect(bursts[0]!.strength).toBeCloseTo(3 * perYear, 8);
    // A flat series has no burst; entering one costs γ·ln(T).
    expect(kleinbergBursts(series.map((p) => ({ ...p, relevant: 10 })))).toEqual([]);
  });
});
