import { fullNameKey, nameFit, nameParts } from '../../src/analytics/person-names';
import { acronymIn, peopleIn, studyNamed } from '../../src/pipeline/plan-references';
import { planQuestion } from '../../src/pipeline/planner';
import { longestRun } from '../../src/pipeline/stages/computed/paper-resolution';

const fit = (asked: string, stored: string) => nameFit(nameParts(asked)!, nameParts(stored)!);

describe('person names as people write them', () => {
  it('reads surname and given names, surname first too', () => {
    expect(nameParts('Marsha M. Linehan')).toEqual({ surname: 'linehan', given: ['marsha', 'm'] });
    expect(nameParts('Filardo, Giuseppe')).toEqual({ surname: 'filardo', given: ['giuseppe'] });
    expect(nameParts('Kirschbaum C')).toEqual({ surname: 'kirschbaum', given: ['c'] });
    expect(nameParts('Elisabeth F.C. van Rossum')?.surname).toBe('rossum');
    expect(nameParts('Jørgen Jahnsen')).toEqual({ surname: 'jahnsen', given: ['jorgen'] });
    // Titles and degrees some records carry are not the name; a given name like "Md" or "Ma" is.
    expect(nameParts('F.A.C.P. Stephen D. Silberstein M.D.')).toEqual({
      surname: 'silberstein',
      given: ['stephen', 'd'],
    });
    expect(nameParts('Prof. Dr. Anna Weber PhD')).toEqual({ surname: 'weber', given: ['anna'] });
    expect(nameParts('John Smith Jr.')).toEqual({ surname: 'smith', given: ['john'] });
    expect(nameParts('Md Rahman Khan')).toEqual({ surname: 'khan', given: ['md', 'rahman'] });
    expect(fit('Stephen Silberstein', 'F.A.C.P. Stephen D. Silberstein M.D.')).toBe(3);
  });

  it('fits a name without its middle initial, with an initial, without diacritics; not another person', () => {
    expect(fit('Marsha Linehan', 'Marsha M. Linehan')).toBe(3);
    expect(fit('Jorgen Jahnsen', 'Jørgen Jahnsen')).toBe(3);
    expect(fit('Kirschbaum C', 'Clemens Kirschbaum')).toBe(2);
    // An initial asked says no more than an initial stored: "C. Kirschbaum" is no better a fit than "Clemens".
    expect(fit('Kirschbaum C', 'C. Kirschbaum')).toBe(2);
    expect(fit('Kirschbaum C', 'Dieter Kirschbaum')).toBe(0);
    expect(fit('M. Shima', 'Midori Shima')).toBe(2);
    expect(fit('Elisabeth van Rossum', 'Elisabeth F.C. van Rossum')).toBe(3);
    expect(fit('Mary Zanarini', 'Mary C. Zanarini')).toBe(3);
    expect(fit('Marsha Linehan', 'Mary Linehan')).toBe(0);
    expect(fit('Marsha Linehan', 'Marsha Lineham')).toBe(0);
    // A second initial both give that differs tells namesakes apart: "Kim SC" fits "Seoyoung C. Kim" better than
    // "Seok Hyun Kim"; one agreeing, or missing, changes nothing.
    expect(fit('Kim SC', 'Seoyoung C. Kim')).toBeGreaterThan(fit('Kim SC', 'Seok Hyun Kim'));
    expect(fit('Kim SC', 'Seok Hyun Kim')).toBeGreaterThan(0);
    expect(fit('Kim SH', 'Seok Hyun Kim')).toBe(fit('Kim SH', 'S. Kim'));
    expect(fit('Richard D. Penn', 'Richard Penn')).toBe(fit('Richard D. Penn', 'Richard D. Penn'));
  });

  it('finds names written surname first in a question', () => {
    expect(peopleIn('h-index of Filardo, Giuseppe?')).toContain('Filardo, Giuseppe');
    expect(peopleIn('With whom has Kirschbaum C published most often?')).toContain('Kirschbaum C');
  });
});

describe('studies named by their acronym', () => {
  it('reads the acronym, with its number, and not an agency, a method or a disorder', () => {
    expect(acronymIn('Which papers are co-cited with the NOR-SWITCH trial?')).toBe('NOR-SWITCH');
    expect(acronymIn('What papers are bibliographically coupled with HAVEN 4?')).toBe('HAVEN 4');
    expect(acronymIn('What is cited together with the PLANETRA study?')).toBe('PLANETRA');
    expect(acronymIn('What did the FDA say about DBT for BPD?')).toBeNull();
    expect(planQuestion('Which papers are co-cited with the EGALITY study?', 'bibliometric')).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
      paper: 'EGALITY',
    });
  });
});

describe('studies named by acronym and description', () => {
  it('keeps the description that follows an acronym, and the acronym alone when only the kind of work follows', () => {
    expect(studyNamed('What earlier work does the EAGLE trial of lens extraction for angle closure rely on?')).toBe(
      'EAGLE trial of lens extraction for angle closure',
    );
    expect(studyNamed('Which papers are co-cited with the EAGLE trial?')).toBe('EAGLE');
    expect(studyNamed('Which papers cite HAVEN 4?')).toBe('HAVEN 4');
    expect(studyNamed('Which papers cite the aspirin trial?')).toBeNull();
  });

  it('measures the longest run of a description’s words, in order, in a title', () => {
    const words = (text: string) => text.toLowerCase().split(/\W+/).filter(Boolean);
    const described = words('HERS trial of estrogen plus progestin');
    expect(longestRun(described, words('Randomized trial of estrogen plus progestin for secondary prevention'))).toBe(
      5,
    );
    expect(longestRun(described, words('Risks and benefits of estrogen plus progestin in healthy women'))).toBe(4);
    expect(longestRun(described, words('Progestin plus estrogen'))).toBe(1);
    expect(longestRun(described, [])).toBe(0);
  });
});

describe('fullNameKey', () => {
  it('keys a name by its first given name and surname, folded, and refuses initials only', () => {
    expect(fullNameKey('Giuseppe Filardo')).toBe('name:giuseppe filardo');
    expect(fullNameKey('Giuseppe M. Filardo')).toBe(fullNameKey('Giuseppe Filardo'));
    expect(fullNameKey('Filardo, Giuseppe')).toBe(fullNameKey('Giuseppe Filardo'));
    expect(fullNameKey('Elisabeth F.C. van Rossum')).toBe('name:elisabeth rossum');
    expect(fullNameKey('José Müller')).toBe(fullNameKey('Jose Muller'));
    expect(fullNameKey('G. Filardo')).toBeNull();
    expect(fullNameKey('')).toBeNull();
  });
});
