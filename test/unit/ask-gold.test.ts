import { figureMiss, personKey } from '../../scripts/lib/ask-gold';
import type { AnswerFigure } from '../../src/pipeline/ask-types';

const top = (items: Array<[string, string]>): AnswerFigure => ({
  kind: 'top',
  value: null,
  items: items.map(([id, label], i) => ({ id, label, value: 10 - i })),
  years: [2000, 2020],
});

describe('judging an answer against its gold plan and figure (bench-ask --set v3)', () => {
  it('keys a person by first given name and surname, whatever the initials, order marks or diacritics', () => {
    expect(personKey('Marsha M. Linehan')).toBe(personKey('Marsha Linehan'));
    expect(personKey('Jørgen Jahnsen')).toBe(personKey('Jorgen Jahnsen'));
    expect(personKey('Elisabeth F.C. van Rossum')).toBe('elisabeth rossum');
    expect(personKey('Marsha M. Linehan')).not.toBe(personKey('Mary C. Zanarini'));
  });

  it('accepts a count inside the gold range over the gold years, and nothing else', () => {
    const gold = { op: 'count_papers', years: [2015, null] as [number, null] };
    const expected = {
      kind: 'count' as const,
      value: 100,
      accept: [50, 150] as [number, number],
      years: [2015, 2022] as [number, number],
    };
    const figure = (value: number, years: [number, number]): AnswerFigure => ({
      kind: 'count',
      value,
      items: [],
      years,
    });
    expect(figureMiss(gold, expected, figure(120, [2015, 2022]))).toBeNull();
    expect(figureMiss(gold, expected, figure(6, [2015, 2022]))).toMatch(/count 6/);
    // Years past the data's last year (the current year) are a wrong window even when the count is right.
    expect(figureMiss(gold, expected, figure(120, [2015, 2026]))).toMatch(/years 2015–2026/);
    // The open end is where the topic's own papers end, inside the gold's coverage; the named start is exact.
    expect(figureMiss(gold, expected, figure(120, [2015, 2021]))).toBeNull();
    expect(figureMiss(gold, expected, figure(120, [2014, 2022]))).toMatch(/years 2014–2022/);
    const before = { op: 'count_papers', years: [null, 2018] as [null, number] };
    const window = { ...expected, years: [1994, 2018] as [number, number] };
    expect(figureMiss(before, window, figure(120, [2011, 2018]))).toBeNull();
    expect(figureMiss(before, window, figure(120, [1990, 2018]))).toMatch(/years 1990–2018/);
    expect(figureMiss(before, window, figure(120, [2011, 2019]))).toMatch(/years 2011–2019/);
    expect(figureMiss(gold, expected, null)).toBe('no figure');
  });

  it('judges a Lotka share by its range, a Bradford core by its range and a citation path by its exact length', () => {
    const share = (value: number): AnswerFigure => ({ kind: 'share', value, items: [], years: null });
    const lotka = { kind: 'share' as const, value: 0.858, accept: [0.828, 0.888] as [number, number] };
    expect(figureMiss({ op: 'lotka' }, lotka, share(0.866))).toBeNull();
    expect(figureMiss({ op: 'lotka' }, lotka, share(0.7))).toMatch(/share 0\.7, gold 0\.858/);
    expect(figureMiss({ op: 'lotka' }, lotka, top([['x', 'x']]))).toMatch(/not a share/);
    const measure = (value: number | null): AnswerFigure => ({ kind: 'value', value, items: [], years: null });
    const core = { kind: 'value' as const, metric: 'core journals', value: 21, accept: [20, 22] as [number, number] };
    expect(figureMiss({ op: 'bradford' }, core, measure(22))).toBeNull();
    expect(figureMiss({ op: 'bradford' }, core, measure(19))).toMatch(/core journals 19, gold 21/);
    const path = { kind: 'value' as const, metric: 'citation links', value: 1 };
    expect(figureMiss({ op: 'citation_path' }, path, measure(1))).toBeNull();
    expect(figureMiss({ op: 'citation_path' }, path, measure(2))).toMatch(/citation links 2, gold 1/);
    // No path where the gold has one is wrong, and the other way round.
    expect(figureMiss({ op: 'citation_path' }, path, measure(null))).toMatch(/citation links none, gold 1/);
    expect(figureMiss({ op: 'citation_path' }, { ...path, value: null }, measure(null))).toBeNull();
  });

  it('takes a ranking as right when its first item is among the gold top items', () => {
    const papers = { op: 'top_papers' };
    const expected = { kind: 'top' as const, items: ['W1', 'W2'] };
    expect(figureMiss(papers, expected, top([['W2', 'A title']]))).toBeNull();
    expect(figureMiss(papers, expected, top([['W9', 'Another']]))).toMatch(/first Another/);
    const people = { op: 'top_authors' };
    expect(
      figureMiss(people, { kind: 'top', items: ['Marsha M. Linehan'] }, top([['A1', 'Marsha Linehan']])),
    ).toBeNull();
  });

  it("compares a person's named measure exactly, and a trend's peak year", () => {
    const metrics: AnswerFigure = {
      kind: 'metrics',
      value: null,
      items: [
        { id: 'papers', label: 'papers', value: 55 },
        { id: 'h_index', label: 'h', value: 24 },
      ],
      years: null,
    };
    expect(figureMiss({ op: 'author_metrics' }, { kind: 'value', metric: 'h_index', value: 24 }, metrics)).toBeNull();
    expect(figureMiss({ op: 'author_metrics' }, { kind: 'value', metric: 'papers', value: 28 }, metrics)).toMatch(
      /papers 55/,
    );
    const peak: AnswerFigure = { kind: 'peak', value: 2019, items: [], years: [1990, 2021] };
    expect(figureMiss({ op: 'topic_trend' }, { kind: 'peak', items: [2019] }, peak)).toBeNull();
    expect(figureMiss({ op: 'topic_trend' }, { kind: 'peak', items: [2017] }, peak)).toMatch(/peak 2019/);
  });
  it('judges a comparison of two windows by the winning window, an open end matching the year the answer closed it with', () => {
    const gold = {
      op: 'compare_periods',
      periods: [
        [null, 2009],
        [2010, null],
      ],
    };
    const expected = { kind: 'choice' as const, value: '[2010, None]' };
    const choice = (first: string, second: string): AnswerFigure => ({
      kind: 'choice',
      value: null,
      items: [
        { id: first, label: first, value: 20 },
        { id: second, label: second, value: 10 },
      ],
      years: null,
    });
    expect(figureMiss(gold, expected, choice('[2010, 2020]', '[1960, 2009]'))).toBeNull();
    expect(figureMiss(gold, expected, choice('[1960, 2009]', '[2010, 2020]'))).toMatch(/larger/);
    expect(figureMiss(gold, expected, choice('[2011, 2020]', '[1960, 2010]'))).toMatch(/larger/);
  });
});
