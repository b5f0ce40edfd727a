import { PAPER_OPERATIONS, PERSON_OPERATIONS, PLAN_OPERATIONS, TOPIC_OPERATIONS } from '../../src/pipeline/plan-schema';
import { planQuestion } from '../../src/pipeline/planner';
import { routeQuestion } from '../../src/pipeline/router';
import { combineRoute, routeOptions } from '../../src/pipeline/stages/route';

const probabilities = { content: 0.04, bibliometric: 0.03, trend: 0.9, current_world: 0.03 };

/** The route when a confident classifier says "trend". */
function routedAgainstTrend(question: string) {
  const rules = routeQuestion(question);
  return combineRoute(rules, { route: 'trend', confidence: 0.9, probabilities }, routeOptions(question, rules)).route;
}

describe('routes of counts and comparisons of literatures', () => {
  it('keeps a count with a year window bibliometric: the years filter, they do not ask for a course', () => {
    expect(routedAgainstTrend('Count the studies about glaucoma surgery published since 2012.')).toBe('bibliometric');
    // A request closed by a full stop is no assertion to check.
    expect(routedAgainstTrend('Number of publications on sleep apnea between 2005 and 2010, please.')).toBe(
      'bibliometric',
    );
    expect(routedAgainstTrend('Which literature is larger here: glaucoma surgery or sleep apnea?')).toBe(
      'bibliometric',
    );
  });

  it('leaves a comparison of findings and a course over time to the other routes', () => {
    expect(routedAgainstTrend('Is glaucoma more common in women or in men?')).not.toBe('bibliometric');
    expect(routedAgainstTrend('How did the number of glaucoma papers change since 2012?')).toBe('trend');
  });
});

describe('subjects read from the wording', () => {
  const plan = (question: string, route: 'bibliometric' | 'trend' = 'bibliometric') => planQuestion(question, route);

  it('takes a journal named as a filter out of the subject, the cues and the people', () => {
    expect(plan('How many glaucoma papers appeared in Ophthalmology?')).toMatchObject({
      operation: 'count_papers',
      topic: 'glaucoma',
      venue: 'Ophthalmology',
    });
    expect(plan('Which papers on glaucoma were published in the Journal of Glaucoma Research?')).toMatchObject({
      operation: 'top_papers',
      topic: 'glaucoma',
      person: null,
      venue: 'Journal of Glaucoma Research',
    });
    expect(plan('How many sleep apnea articles has the journal Chest published?')).toMatchObject({
      operation: 'count_papers',
      topic: 'sleep apnea',
      venue: 'Chest',
    });
  });

  it('reads "citation counts" as a ranking, not a count', () => {
    expect(plan('Which glaucoma studies have the highest citation counts?')).toMatchObject({
      operation: 'top_papers',
      topic: 'glaucoma',
    });
  });

  it('keeps the subject words joined by "in" and "for" and drops adverbs and verbs of change', () => {
    expect(plan('Where is sleep memory in rodents usually published?').topic).toBe('sleep memory rodents');
    expect(plan('How has beta blocker research for glaucoma developed before 2000?', 'trend')).toMatchObject({
      topic: 'beta blocker glaucoma',
      yearTo: 1999,
    });
    expect(plan('Is sleep apnea a hot topic or has it cooled off in recent years?', 'trend').topic).toBe('sleep apnea');
    // Framing before "in" stays out ("the authors in …", "productivity in …").
    expect(plan('Who are the most prolific authors in glaucoma research?').topic).toBe('glaucoma');
  });

  it('reads "more or less frequent" as one course, not two topics', () => {
    expect(plan('Over time, did glaucoma papers become more or less frequent?', 'trend')).toMatchObject({
      operation: 'topic_trend',
      topic: 'glaucoma',
      second: null,
    });
  });

  it('asks for a person’s figures when a citation question names a person and no topic', () => {
    expect(plan('How often has Jane Marsden been cited in total?')).toMatchObject({
      operation: 'author_metrics',
      person: 'Jane Marsden',
    });
    // Capitalised words that are no person and no citation cue do not make a profile.
    expect(plan('In what year did the Western Roman Empire fall?').operation).not.toBe('author_metrics');
  });

  it('finds co-citation in "cite together with" and a paper described by its kind and subject', () => {
    expect(plan('Which papers does the literature cite together with the most cited glaucoma paper?')).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
      firstStep: 'most_cited_paper',
      paper: null,
    });
    expect(
      plan(
        'How many papers in the collection cite Marsden’s 2004 trial of laser trabeculoplasty for open-angle glaucoma?',
      ),
    ).toMatchObject({
      operation: 'derivative_works',
      paper: 'Marsden’s 2004 trial of laser trabeculoplasty for open-angle glaucoma',
    });
    expect(plan('How is the EAGLE trial connected by citations to the 2011 review of glaucoma surgery?')).toMatchObject(
      { operation: 'citation_path', paper: 'EAGLE', second: '2011 review of glaucoma surgery' },
    );
  });

  it('reads Lotka’s share with words between "share of" and "authors"', () => {
    expect(plan('What share of glaucoma surgery authors wrote only one paper?')).toMatchObject({
      operation: 'lotka',
      topic: 'glaucoma surgery',
    });
  });

  it('ranks researchers by global citations unless citations inside the graph are asked for', () => {
    expect(plan('What is the h-index of the most cited researcher on glaucoma?')).toMatchObject({
      firstStep: 'most_cited_author',
      citationBasis: 'global',
    });
    expect(
      plan('What is the h-index of the most cited researcher on glaucoma, counting citations inside the graph?'),
    ).toMatchObject({ firstStep: 'most_cited_author', citationBasis: 'internal' });
    // Papers are still ranked by citations inside the graph.
    expect(plan('Which are the most cited glaucoma papers?').citationBasis).toBe('internal');
  });
});

describe('rankings, people and comparisons in terse wordings', () => {
  const plan = (question: string) => planQuestion(question, 'bibliometric');

  it('reads "by how many papers" and "by publication count" as the basis of a ranking, not a count', () => {
    expect(plan('Rank the glaucoma surgery authors by how many papers they have.')).toMatchObject({
      operation: 'top_authors',
      topic: 'glaucoma surgery',
    });
    expect(plan('Who dominates sleep apnea research by publication count?')).toMatchObject({
      operation: 'top_authors',
      topic: 'sleep apnea',
    });
    expect(routeQuestion('Who dominates sleep apnea research by publication count?').route).toBe('bibliometric');
    // A count stays a count.
    expect(plan('How many papers on sleep apnea are there?').operation).toBe('count_papers');
  });

  it('finds the people of a literature, co-authors who "write with", and authors who "publish just once"', () => {
    expect(plan('Name the key people in glaucoma surgery research.')).toMatchObject({
      operation: 'top_authors',
      topic: 'glaucoma surgery',
    });
    expect(routedAgainstTrend('Name the key people in glaucoma surgery research.')).toBe('bibliometric');
    expect(plan('Who does Jane Marsden usually write with?')).toMatchObject({
      operation: 'coauthors',
      person: 'Jane Marsden',
    });
    expect(plan('Do most sleep apnea authors publish just once?')).toMatchObject({
      operation: 'lotka',
      topic: 'sleep apnea',
    });
  });

  it('compares two literatures named with "compare … and …", never a topic with a time', () => {
    expect(plan('Compare the size of the glaucoma and sleep apnea literatures.')).toMatchObject({
      operation: 'compare_topics',
      topic: 'glaucoma',
      second: 'sleep apnea',
    });
    expect(routedAgainstTrend('Compare the size of the glaucoma and sleep apnea literatures.')).toBe('bibliometric');
    expect(plan('Are fewer studies on glaucoma published now than before?').operation).not.toBe('compare_topics');
  });

  it('keeps "versus" inside a described paper out of the comparisons', () => {
    expect(
      plan('What gets cited together with the 2006 trial of laser trabeculoplasty versus eye drops?'),
    ).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
      paper: '2006 trial of laser trabeculoplasty versus eye drops',
    });
  });

  it('takes a request that opens with "I need" or asks for a count as a request, not an assertion', () => {
    expect(routedAgainstTrend('I need the classic references on laser trabeculoplasty for glaucoma.')).toBe(
      'bibliometric',
    );
    expect(routedAgainstTrend('Is the sleep apnea literature here big? Give me a count.')).toBe('bibliometric');
  });
});

describe('operation kinds', () => {
  it('sorts every operation into exactly one of topic, person and paper operations', () => {
    for (const op of PLAN_OPERATIONS) {
      const kinds = [TOPIC_OPERATIONS, PERSON_OPERATIONS, PAPER_OPERATIONS].filter((set) => set.has(op));
      expect([op, kinds.length]).toEqual([op, 1]);
    }
    expect(TOPIC_OPERATIONS.has('lotka')).toBe(true);
    expect(TOPIC_OPERATIONS.has('coauthors')).toBe(false);
  });
});

describe('yes-no questions about findings in places', () => {
  it('does not take hospitals or countries in a finding for a ranking of them', () => {
    const content = { content: 0.9, bibliometric: 0.04, trend: 0.03, current_world: 0.03 };
    for (const question of [
      'Does laser trabeculoplasty reduce hospital admissions for glaucoma?',
      'Is sleep apnea underdiagnosed in low-income countries?',
    ]) {
      const rules = routeQuestion(question);
      expect(routeOptions(question, rules).definite).toBeNull();
      expect(
        combineRoute(
          rules,
          { route: 'content', confidence: 0.9, probabilities: content },
          routeOptions(question, rules),
        ).route,
      ).toBe('content');
    }
    // Asked as a ranking, institutions are one.
    const ranking = 'Which hospitals publish most on glaucoma surgery?';
    expect(routeOptions(ranking, routeQuestion(ranking)).definite).toMatch(/^top_institutions/);
  });
});

describe('filters by country and institution', () => {
  const plan = (question: string) => planQuestion(question, 'bibliometric');

  it('reads a country from its name, a short form or a nationality before authors, out of the subject', () => {
    expect(plan('How many glaucoma papers come from Germany?')).toMatchObject({ topic: 'glaucoma', country: 'DE' });
    expect(plan('How many studies on sleep apnea are from the United States?')).toMatchObject({
      topic: 'sleep apnea',
      country: 'US',
    });
    expect(plan('What is the trend of glaucoma surgery research in the UK?')).toMatchObject({
      topic: 'glaucoma surgery',
      country: 'GB',
    });
    // "by Japanese authors" leaves neither the nationality nor an author cue behind.
    expect(plan('Which glaucoma papers by Japanese authors are cited most?')).toMatchObject({
      operation: 'top_papers',
      topic: 'glaucoma',
      country: 'JP',
    });
    expect(plan('How many papers on sleep apnea are there?').country).toBeNull();
  });

  it('reads an institution named with its kind of place, out of the subject and the cues', () => {
    expect(plan('Who publishes most on glaucoma at Erasmus University Rotterdam?')).toMatchObject({
      operation: 'top_authors',
      topic: 'glaucoma',
      institution: 'Erasmus University Rotterdam',
    });
    expect(plan('How many sleep apnea papers were written at the Hospital for Special Surgery?')).toMatchObject({
      operation: 'count_papers',
      topic: 'sleep apnea',
      institution: 'Hospital for Special Surgery',
    });
  });
});

describe('papers named in single quotes, and literature sizes and peaks in other words', () => {
  const plan = (question: string, route: 'bibliometric' | 'trend' = 'bibliometric') => planQuestion(question, route);
  const title = 'Deep Brain Stimulation for Treatment-Resistant Depression';

  it('reads a title in single quotes as the paper, never as a person', () => {
    expect(plan(`How many papers in the graph cite '${title}'?`)).toMatchObject({
      operation: 'derivative_works',
      paper: title,
      person: null,
    });
    expect(plan(`Which papers tend to be cited alongside '${title}'?`)).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
      paper: title,
    });
    // A possessive's apostrophe opens no quotation.
    expect(plan("What are Mayberg's most cited papers on deep brain stimulation?").paper).toBeNull();
  });

  it('counts a literature asked by its size with the subject inside, or by "pieces"', () => {
    const size = 'Ballpark, how big is the sleep apnea literature you hold?';
    expect(routeQuestion(size).route).toBe('bibliometric');
    expect(plan(size)).toMatchObject({ operation: 'count_papers', topic: 'sleep apnea' });
    const pieces = 'how many pieces on sleep apnea do you have from 2015 onward';
    expect(routeQuestion(pieces).route).toBe('bibliometric');
    expect(plan(pieces)).toMatchObject({
      operation: 'count_papers',
      topic: 'sleep apnea',
      yearFrom: 2015,
      yearTo: null,
    });
  });

  it('counts a literature asked by its volume, and reads the year with the most papers as a trend', () => {
    expect(routeQuestion('Roughly what volume of literature on sleep apnea sits in this graph?').route).toBe(
      'bibliometric',
    );
    expect(plan('Roughly what volume of literature on sleep apnea sits in this graph?')).toMatchObject({
      operation: 'count_papers',
      topic: 'sleep apnea',
    });
    expect(routeQuestion('Which year had the most sleep apnea publications?').route).toBe('trend');
    // A confident classifier does not overrule either: the planner reads the subject and what is asked of it.
    const peak = 'Which year had the most sleep apnea publications?';
    const rules = routeQuestion(peak);
    const bibliometric = { content: 0.03, bibliometric: 0.9, trend: 0.04, current_world: 0.03 };
    expect(
      combineRoute(
        rules,
        { route: 'bibliometric', confidence: 0.9, probabilities: bibliometric },
        routeOptions(peak, rules),
      ).route,
    ).toBe('trend');
    expect(routedAgainstTrend('Roughly what volume of literature on sleep apnea sits in this graph?')).toBe(
      'bibliometric',
    );
    // A paper's year is no peak of a literature.
    expect(routeOptions('Which year was the most cited sleep apnea paper published?', rules).definiteTrend).toBeNull();
    expect(plan('Which year had the most sleep apnea publications?', 'trend').operation).toBe('topic_trend');
    // Words between "how many" and what is counted ("how many Hemlibra (emicizumab) papers"), and "how much
    // literature", ask for a count; "how many patients in the trials" is about content.
    expect(routeQuestion('From 2018 onwards, how many Trusopt (dorzolamide) papers were published?').route).toBe(
      'bibliometric',
    );
    expect(plan('From 2018 onwards, how many Trusopt (dorzolamide) papers were published?')).toMatchObject({
      operation: 'count_papers',
      topic: 'trusopt dorzolamide',
      yearFrom: 2018,
    });
    expect(routeQuestion('Roughly how much literature on glaucoma sits in this database?').route).toBe('bibliometric');
    expect(routeQuestion('How many patients in the dorzolamide trials had eye pain?').route).toBe('content');
    expect(plan("I'd like a headcount of papers about glaucoma surgery in your index.")).toMatchObject({
      operation: 'count_papers',
      topic: 'glaucoma surgery',
    });
    expect(plan('Jost B. Jonas: how many papers?')).toMatchObject({
      operation: 'author_metrics',
      person: 'Jost B. Jonas',
    });
    expect(plan('Total citations received by Jonas JB?')).toMatchObject({
      operation: 'author_metrics',
      person: 'Jonas JB',
    });
    expect(
      routeQuestion('Did glaucoma publishing reach its highest point in a particular year? Which one?').route,
    ).toBe('trend');
    expect(
      plan('Did glaucoma publishing reach its highest point in a particular year? Which one?', 'trend'),
    ).toMatchObject({ operation: 'topic_trend', topic: 'glaucoma' });
    expect(plan("How many core journals does glaucoma research have in Bradford's sense?")).toMatchObject({
      operation: 'bradford',
      topic: 'glaucoma',
    });
  });

  it('reads a citation index as the basis, "sum of citations for <initial. surname>", "who is cited more: A or B?" and a move between two windows', () => {
    expect(plan('Which glaucoma papers have the highest citation counts in OpenAlex?')).toMatchObject({
      operation: 'top_papers',
      topic: 'glaucoma',
      citationBasis: 'global',
    });
    expect(plan("Sum of citations for J. Jonas's papers?")).toMatchObject({
      operation: 'author_metrics',
      person: 'J. Jonas',
    });
    expect(plan('Who is cited more: Jost Jonas or Robert Weinreb?')).toMatchObject({
      operation: 'compare_people',
      person: 'Jost Jonas',
      second: 'Robert Weinreb',
    });
    expect(plan('Did glaucoma output grow from 2008-2012 to 2013-2017?', 'trend')).toMatchObject({
      operation: 'compare_periods',
      topic: 'glaucoma',
      periods: [
        { from: 2008, to: 2012 },
        { from: 2013, to: 2017 },
      ],
    });
    // One window stays one window: a count, not a comparison.
    expect(plan('How many papers on glaucoma from 2010 to 2015?')).toMatchObject({
      operation: 'count_papers',
      yearFrom: 2010,
      yearTo: 2015,
    });
  });

  it('reads "the largest number of" as a ranking, a fall between two decades as a comparison, and findings reported by studies as content', () => {
    expect(plan('Which journal has published the largest number of glaucoma papers?')).toMatchObject({
      operation: 'top_venues',
      topic: 'glaucoma',
    });
    expect(routeQuestion('Did glaucoma publications fall from the 1980s to the 1990s?').route).toBe('trend');
    expect(plan('Did glaucoma publications fall from the 1980s to the 1990s?', 'trend')).toMatchObject({
      operation: 'compare_periods',
      periods: [
        { from: 1980, to: 1989 },
        { from: 1990, to: 1999 },
      ],
    });
    expect(routeQuestion('Is research on glaucoma growing or shrinking?').route).toBe('trend');
    // What studies report about a measure is a finding, however much "falls" sounds like a course.
    expect(routeQuestion('Do studies show that intraocular pressure falls with timolol?').route).toBe('content');
    expect(routeQuestion('Do studies find that eye pressure increases after steroids?').route).toBe('content');
  });

  it('reads "is more written on A than on B" as a size comparison, "sharing references" as coupling and no question word as a name', () => {
    expect(routeQuestion('Is there more written on glaucoma than on sleep apnea?').route).toBe('bibliometric');
    expect(plan('Is there more written on glaucoma than on sleep apnea?')).toMatchObject({
      operation: 'compare_topics',
      topic: 'glaucoma',
      second: 'sleep apnea',
    });
    // A finding compared is still content.
    expect(routeQuestion('Is glaucoma more common than sleep apnea in older adults?').route).toBe('content');
    expect(
      plan("Which papers share the most references with 'Timolol versus latanoprost in open-angle glaucoma'?"),
    ).toMatchObject({
      operation: 'related_papers',
      relation: 'coupled',
    });
    expect(
      plan("Find the papers sharing most references with 'Timolol versus latanoprost in open-angle glaucoma'."),
    ).toMatchObject({
      operation: 'related_papers',
      relation: 'coupled',
    });
    expect(
      plan("Which studies cite the same literature as 'Timolol versus latanoprost in open-angle glaucoma'?"),
    ).toMatchObject({
      operation: 'related_papers',
      relation: 'coupled',
    });
    expect(routeQuestion('Is the literature on glaucoma bigger than that on sleep apnea?').route).toBe('bibliometric');
    expect(plan('Is the literature on glaucoma bigger than that on sleep apnea?')).toMatchObject({
      operation: 'compare_topics',
      topic: 'glaucoma',
      second: 'sleep apnea',
    });
    // Papers that build upon a paper cite it; what a paper builds upon, it cites.
    expect(
      plan("How many papers in the graph build upon 'Timolol versus latanoprost in open-angle glaucoma'?"),
    ).toMatchObject({ operation: 'derivative_works' });
    expect(plan("What does 'Timolol versus latanoprost in open-angle glaucoma' build upon?")).toMatchObject({
      operation: 'prior_works',
    });
    expect(plan("What does Lotka's law look like for glaucoma authors?")).toMatchObject({
      operation: 'lotka',
      topic: 'glaucoma',
    });
    expect(plan("What's the size of the open-angle glaucoma literature in citegraph?")).toMatchObject({
      operation: 'count_papers',
      topic: 'open angle glaucoma',
    });
    expect(plan('List the most globally cited papers on trabeculectomy.')).toMatchObject({
      operation: 'top_papers',
      topic: 'trabeculectomy',
    });
    const later = 'Papers on trabeculectomy published 2018 or later: how many?';
    expect(routedAgainstTrend(later)).toBe('bibliometric');
    expect(plan(later)).toMatchObject({ operation: 'count_papers', topic: 'trabeculectomy', yearFrom: 2018 });
    expect(plan("What's Jost Jonas's h-index?")).toMatchObject({ operation: 'author_metrics', person: 'Jost Jonas' });
    expect(plan('Who has Robert Weinreb written the most papers with?')).toMatchObject({
      operation: 'coauthors',
      person: 'Robert Weinreb',
    });
    expect(plan("Who's Robert Weinreb's most frequent co-author?")).toMatchObject({
      operation: 'coauthors',
      person: 'Robert Weinreb',
    });
  });
});

describe('how much has been written', () => {
  it('is the size of a literature, and "going by this graph" is not part of its subject', () => {
    const question = 'How much has been written about sleep apnea in children, going by this graph?';
    expect(routeQuestion(question).route).toBe('bibliometric');
    expect(planQuestion(question, 'bibliometric')).toMatchObject({
      operation: 'count_papers',
      topic: 'sleep apnea children',
    });
    expect(
      planQuestion('How much was published on glaucoma surgery according to your database?', 'bibliometric'),
    ).toMatchObject({
      operation: 'count_papers',
      topic: 'glaucoma surgery',
    });
  });
});

describe('requests and rankings in other orders', () => {
  it('reads "plot X per year" without the request verb, and "the X paper cited most" as a first step', () => {
    expect(
      planQuestion('Plot sleep apnea publications per year since 2012 - when was the peak?', 'trend'),
    ).toMatchObject({ operation: 'topic_trend', topic: 'sleep apnea', yearFrom: 2012 });
    expect(planQuestion('Could you chart glaucoma surgery papers by year?', 'trend')).toMatchObject({
      topic: 'glaucoma surgery',
    });
    const cocited = 'Take the trabeculectomy paper cited most inside the graph: which papers are co-cited with it?';
    expect(planQuestion(cocited, 'bibliometric')).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
      firstStep: 'most_cited_paper',
      topic: 'trabeculectomy',
      paper: null,
    });
    expect(
      planQuestion('For the glaucoma author cited most, who are the frequent co-authors?', 'bibliometric'),
    ).toMatchObject({ operation: 'coauthors', firstStep: 'most_cited_author', topic: 'glaucoma' });
  });
});

describe('quoted titles and what a paper draws on', () => {
  it('reads no cue inside a quoted title, and "reference" as a verb of citing', () => {
    // A title's words ("Trends", "Changes", "this week") are the paper's, never the question's cues.
    expect(routeQuestion("Which papers in the graph cite 'Trends in trabeculectomy outcomes'?").route).toBe(
      'bibliometric',
    );
    expect(routeQuestion("How many papers cite 'Changes in intraocular pressure this week after surgery'?").route).toBe(
      'bibliometric',
    );
    expect(routeQuestion("What does 'Changes in intraocular pressure after trabeculectomy' conclude?").route).toBe(
      'content',
    );
    const referencing = "Which works in the collection reference 'Timolol versus latanoprost in open-angle glaucoma'?";
    expect(routeQuestion(referencing).route).toBe('bibliometric');
    expect(planQuestion(referencing, 'bibliometric')).toMatchObject({ operation: 'derivative_works' });
  });

  it('reads the sources of a paper in words of drawing on and relying on', () => {
    for (const question of [
      "What does 'Timolol versus latanoprost in open-angle glaucoma' draw on from within this collection?",
      "List the in-collection sources of 'Timolol versus latanoprost in open-angle glaucoma'.",
      "How many earlier graph papers does 'Timolol versus latanoprost in open-angle glaucoma' rely on?",
    ])
      expect(planQuestion(question, 'bibliometric')).toMatchObject({
        operation: 'prior_works',
        paper: 'Timolol versus latanoprost in open-angle glaucoma',
      });
  });
});

describe('Lotka and Bradford in other words', () => {
  it('reads one-paper authors asked as people who appear on a single paper, and a core zone', () => {
    expect(
      planQuestion(
        'Among people publishing on glaucoma, how many appear on just a single paper, as a share?',
        'bibliometric',
      ),
    ).toMatchObject({ operation: 'lotka', topic: 'glaucoma' });
    expect(
      planQuestion('Which journals make up the core zone of the sleep apnea literature?', 'bibliometric'),
    ).toMatchObject({ operation: 'bradford', topic: 'sleep apnea' });
  });
});
