/**
 * Person names as people write them: with or without middle initials ("Marsha Linehan" for "Marsha M. Linehan"),
 * surname first ("Filardo, Giuseppe", "Kirschbaum C"), without diacritics ("Jorgen" for "Jørgen"), with particles
 * ("van Rossum"). A name is its surname and its given names; two names are compatible when the surnames are equal and
 * the first given names agree (equal, or one is the other's initial).
 */

/** Letters folded to ASCII where a reader would type them so: diacritics dropped, ø, æ, ß and friends spelt out. */
export function foldName(text: string): string {
  return text
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/[łŁ]/g, 'l')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
}

const PARTICLES = new Set(['van', 'von', 'de', 'der', 'den', 'da', 'di', 'le', 'la', 'du', 'del', 'dos', 'ter', 'ten']);

export interface NameParts {
  /** The surname, folded, particles left out ("rossum" of "van Rossum"). */
  readonly surname: string;
  /** Given names and initials, folded, in order ("marsha", "m"). */
  readonly given: readonly string[];
}

/**
 * Titles, degrees and generational suffixes some records carry around a name ("F.A.C.P. Stephen D. Silberstein M.D.",
 * "Prof. Dr. Anna Weber", "John Smith Jr."): not part of it, folded and without their dots.
 */
const NAME_AFFIXES = new Set(
  'dr prof professor mr mrs ms md phd dphil mphil msc bsc ma mba mph drph pharmd facp frcp frcs frcpc facs facc mbbs mbchb dds dmd rn jr sr ii iii'.split(
    ' ',
  ),
);

/** A name without the titles and degrees before and after it (NAME_AFFIXES), as written otherwise. */
export function withoutAffixes(name: string): string {
  const tokens = name.trim().split(/\s+/);
  const affix = (token: string | undefined) =>
    token !== undefined && NAME_AFFIXES.has(foldName(token).replace(/[^a-z]/g, ''));
  // "Md" and "Ma" open given names too ("Md Rahman Khan", "Ma Li Hua"): degrees only after the name.
  while (tokens.length > 2 && affix(tokens[0]) && !/^m[ad]$/i.test(tokens[0]!)) tokens.shift();
  while (tokens.length > 2 && affix(tokens[tokens.length - 1])) tokens.pop();
  return tokens.join(' ').replace(/,\s*$/, '');
}

/** The parts of a name as written; null when it has no letters. */
export function nameParts(written: string): NameParts | null {
  const name = withoutAffixes(written);
  const comma = name.indexOf(',');
  // "Filardo, Giuseppe": surname before the comma.
  if (comma > 0) {
    const surname = words(name.slice(0, comma)).filter((w) => !PARTICLES.has(w));
    const given = words(name.slice(comma + 1));
    return surname.length ? { surname: surname[surname.length - 1]!, given } : null;
  }
  const all = words(name);
  if (all.length === 0) return null;
  // "Kirschbaum C", "Kirschbaum CA": a surname followed by initials only.
  const trailing = name.trim().split(/\s+/).slice(1);
  if (all.length >= 2 && trailing.length > 0 && trailing.every((w) => /^[A-Z]{1,3}\.?$/.test(w.replace(/\./g, '')))) {
    return { surname: all[0]!, given: trailing.flatMap((w) => w.replace(/\./g, '').toLowerCase().split('')) };
  }
  const named = all.filter((w) => !PARTICLES.has(w));
  return { surname: named[named.length - 1] ?? all[all.length - 1]!, given: named.slice(0, -1) };
}

function words(text: string): string[] {
  return foldName(text)
    .split(/[^a-z0-9'-]+/)
    .flatMap((w) => w.split(/(?<=^[a-z])-(?=[a-z]$)/))
    .map((w) => w.replace(/^[-']+|[-']+$/g, ''))
    .filter((w) => w.length > 0);
}

/**
 * How well a name as asked fits a name in the graph: 0 when they cannot be the same person; 3 for the same first
 * given name, 2 when one gives only its initial, 1 when the question gives a surname alone. An initial asked fits
 * a stored initial no better than a stored name it begins ("Kirschbaum C": "C. Kirschbaum" and "Clemens Kirschbaum"
 * alike), for it says no more.
 */
export function nameFit(asked: NameParts, stored: NameParts): number {
  if (asked.surname !== stored.surname) return 0;
  const a = asked.given[0];
  const s = stored.given[0];
  if (!a) return 1;
  if (!s) return 1;
  // An initial asked fits a stored initial no better than a stored name it begins: it says no more.
  const first = a.length === 1 ? (s.startsWith(a) ? 2 : 0) : a === s ? 3 : s.length === 1 && a.startsWith(s) ? 2 : 0;
  if (first === 0) return 0;
  // A second given name or initial both give and whose initials differ fits worse ("Kim SC" is "Seoyoung C. Kim"
  // rather than "Seok Hyun Kim"); agreeing, or given by one of them only, it says nothing (split records of one
  // person, with and without the middle initial, fit alike).
  const a2 = asked.given[1];
  const s2 = stored.given[1];
  return a2 && s2 && a2[0] !== s2[0] ? first - 0.5 : first;
}

/**
 * A key for a name spelled out (first given name and surname, folded: "Giuseppe Filardo" and "Giuseppe M. Filardo"
 * alike), or null when the name gives only initials, which too many people share to tell them apart.
 */
export function fullNameKey(name: string): string | null {
  const parts = nameParts(name);
  const first = parts?.given[0];
  return parts && first && first.length > 1 ? `name:${first} ${parts.surname}` : null;
}
