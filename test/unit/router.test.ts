import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTES, routeQuestion, yearRange, type Route } from '../../src/pipeline/router';

const labelled = readFileSync(path.join(__dirname, '..', 'fixtures', 'route-questions.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { question: string; route: Route });

describe('question router', () => {
  it('has a labelled set of at least 80 questions across the four routes', () => {
    expect(labelled.length).toBeGreaterThanOrEqual(80);
    for (const route of ROUTES) expect(labelled.filter((q) => q.route === route).length).toBeGreaterThanOrEqual(20);
  });

  it('routes the labelled set accurately, per route', () => {
    const perRoute = Object.fromEntries(ROUTES.map((route) => [route, { right: 0, total: 0 }]));
    const wrong: string[] = [];
    for (const { question, route } of labelled) {
      const decision = routeQuestion(question);
      perRoute[route]!.total += 1;
      if (decision.route === route) perRoute[route]!.right += 1;
      else wrong.push(`${route} → ${decision.route}: ${question}`);
    }
    // Every route at least 90% right; the misses are listed when this fails.
    for (const route of ROUTES)
      expect({ route, accuracy: perRoute[route]!.right / perRoute[route]!.total, wrong }).toMatchObject({
        route,
        accuracy: expect.any(Number),
      });
    for (const route of ROUTES) expect(perRoute[route]!.right / perRoute[route]!.total).toBeGreaterThanOrEqual(0.9);
  });

  it('routes a second set, written after the rules, at least 85% right', () => {
    const heldOut = readFileSync(path.join(__dirname, '..', 'fixtures', 'route-questions-heldout.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { question: string; route: Route });
    const right = heldOut.filter(({ question, route }) => routeQuestion(question).route === route).length;
    expect(right / heldOut.length).toBeGreaterThanOrEqual(0.85);
  });

  it('reads year ranges and people', () => {
    expect(yearRange('between 2000 and 2020')).toEqual({ from: 2000, to: 2020 });
    // Open windows end where the data ends, which the computation knows, never at the current year.
    expect(yearRange('since 2015', 2026)).toEqual({ from: 2015, to: null });
    expect(yearRange('over the past 20 years', 2026)).toEqual({ from: 2006, to: null });
    expect(yearRange('in the last decade', 2026)).toEqual({ from: 2016, to: null });
    expect(yearRange('in the past five years', 2026)).toEqual({ from: 2021, to: null });
    // No calendar window: counted back from the last year the data covers, which the plan learns when it runs.
    expect(yearRange('has it cooled off in recent years', 2026)).toEqual({ from: null, to: null, last: 3 });
    expect(yearRange('after 2002', 2026)).toEqual({ from: 2003, to: null });
    expect(yearRange('papers on glaucoma, 2005 onward', 2026)).toEqual({ from: 2005, to: null });
    expect(yearRange('glaucoma studies from 2010 and later', 2026)).toEqual({ from: 2010, to: null });
    expect(yearRange('glaucoma studies 2012 or later', 2026)).toEqual({ from: 2012, to: null });
    // "On" after a year opens a window only at the end of a clause, never before a subject.
    expect(yearRange('glaucoma papers, 2005 on.', 2026)).toEqual({ from: 2005, to: null });
    expect(yearRange('How many papers in 2015 on glaucoma?', 2026)).toEqual({ from: null, to: null });
    expect(yearRange('before 2000')).toEqual({ from: null, to: 1999 });
    expect(yearRange('up to 2005')).toEqual({ from: null, to: 2005 });
    expect(yearRange('in the 1990s')).toEqual({ from: 1990, to: 1999 });
    expect(yearRange('in 2010-2014 or in 2015-2019')).toEqual({ from: 2010, to: 2014 });
    expect(yearRange('no years here')).toEqual({ from: null, to: null });
    expect(routeQuestion('What is the h-index of Roger Chou?').people).toEqual(['Roger Chou']);
  });

  it('reads the change of a measured quantity as content, the change of its literature as a trend', () => {
    const incidence = routeQuestion('Incidence of sepsis has fallen substantially from 2009 to 2014.');
    expect(incidence.route).toBe('content');
    expect(incidence.reasons[0]).toBe('a change of "Incidence", not of a literature');
    expect(routeQuestion('Has the prevalence of obesity risen since 2000?').route).toBe('content');
    expect(routeQuestion('How has research on sepsis incidence grown since 2000?').route).toBe('trend');
    expect(routeQuestion('How many sepsis papers were published since 2000?').route).toBe('trend');
  });
});
