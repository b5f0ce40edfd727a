/** Institutions and countries a question filters by, and country names as answers write them. */

/** An institution named as a filter: "at/from/by <… University|Institute|Hospital …>" or "<University of …>". */
export const INSTITUTION_FILTER =
  /\b(?:at|from|by|of researchers at|by authors at|by researchers at)\s+(?:the\s+)?((?:[A-Z][\w'’&.-]*\s+){0,5}(?:University|Institute|Hospital|College|Center|Centre|Clinic|Foundation|School of Medicine|Medical School|Medical Center|Medical Centre)(?:\s+(?:of|for|at)\s+(?:the\s+)?[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3}|(?:\s+[A-Z][\w'’&-]*){1,2})?|(?:University|Institute) of\s+(?:the\s+)?[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3})/;

/** Country names (English, as Intl names ISO 3166 regions) and common short forms, lower-cased, to their codes. */
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country's English name from its ISO 3166 code (the code itself when unknown). */
export function countryName(code: string): string {
  try {
    return REGION_NAMES.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

const COUNTRY_CODES: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters)
    for (const b of letters) {
      const code = `${a}${b}`;
      const name = countryName(code);
      // Unknown codes come back as themselves; groupings ("European Union", "world") are no country.
      if (name !== code && !/union|world|unknown|outlying|zone|nations/i.test(name)) map.set(name.toLowerCase(), code);
    }
  const short: Array<[string, string]> = [
    ['usa', 'US'],
    ['the us', 'US'],
    ['the usa', 'US'],
    ['the united states', 'US'],
    ['united states of america', 'US'],
    ['america', 'US'],
    ['uk', 'GB'],
    ['the uk', 'GB'],
    ['britain', 'GB'],
    ['great britain', 'GB'],
    ['england', 'GB'],
    ['scotland', 'GB'],
    ['wales', 'GB'],
    ['the netherlands', 'NL'],
    ['holland', 'NL'],
    ['south korea', 'KR'],
    ['korea', 'KR'],
  ];
  for (const [name, code] of short) map.set(name, code);
  return map;
})();

/** Adjectives of nationality that name a country before authors, researchers, institutions or papers. */
const NATIONALITIES: ReadonlyMap<string, string> = new Map([
  ['american', 'US'],
  ['british', 'GB'],
  ['english', 'GB'],
  ['german', 'DE'],
  ['french', 'FR'],
  ['dutch', 'NL'],
  ['italian', 'IT'],
  ['spanish', 'ES'],
  ['japanese', 'JP'],
  ['chinese', 'CN'],
  ['canadian', 'CA'],
  ['australian', 'AU'],
  ['swedish', 'SE'],
  ['danish', 'DK'],
  ['norwegian', 'NO'],
  ['finnish', 'FI'],
  ['swiss', 'CH'],
  ['belgian', 'BE'],
  ['austrian', 'AT'],
  ['korean', 'KR'],
  ['indian', 'IN'],
  ['brazilian', 'BR'],
]);

/**
 * A country the question restricts to: "from/in/based in <country>" (a name Intl knows, or a common short form) or
 * "<nationality> authors/researchers/institutions/papers"; with the words it came from.
 */
export function countryIn(question: string): { code: string; text: string } | null {
  for (const match of question.matchAll(
    /\b(?:from|in|based in|out of)\s+((?:the\s+)?[A-Z][\w'’.-]*(?:\s+(?:of\s+)?[A-Z][\w'’.-]*){0,3})/g,
  )) {
    const words = match[1]!.split(/\s+/);
    // The longest run of capitalised words that names a country ("the United States" before "the United").
    for (let n = words.length; n >= 1; n -= 1) {
      const name = words
        .slice(0, n)
        .join(' ')
        .replace(/[.,;:?!]+$/, '');
      const code =
        COUNTRY_CODES.get(name.toLowerCase()) ?? COUNTRY_CODES.get(name.toLowerCase().replace(/^the\s+/, ''));
      if (code) return { code, text: `${match[0].slice(0, match[0].length - match[1]!.length)}${name}` };
    }
  }
  // "by Japanese authors" as a whole, so that neither the nationality nor "authors" is read as the subject or a cue.
  const nationality =
    /(?:\bby\s+)?\b([A-Z][a-z]+)\s+(?:authors|researchers|scientists|institutions|universities|groups|teams|papers|studies|research|hospitals)\b/.exec(
      question,
    );
  const code = nationality ? NATIONALITIES.get(nationality[1]!.toLowerCase()) : undefined;
  if (!code) return null;
  // A noun that names what is counted ("British papers") stays in the question; authors and their places go.
  const text = /(?:papers|studies|research)$/.test(nationality![0]) ? nationality![1]! : nationality![0];
  return { code, text };
}
