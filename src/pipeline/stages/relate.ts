import type { Evidence } from '../../domain';
import { type AskDependencies, type Gathered, setsOnly } from '../ask-types';
import {
  type Concept,
  conceptForms,
  connectsConcepts,
  directMatch,
  evidenceMentions,
  namesConcept,
  questionConcepts,
  sameWord,
  stem,
} from '../concepts';
import {
  type ConceptConnection,
  judgeConnection,
  keyConcepts,
  MIN_CONCEPT_PAPERS,
  type PairEvidence,
} from '../concept-connection';
import { isNonFatal, type Stage } from '../stage';
import { terms } from '../../text';

/** Papers read per concept (for the citation check between concepts). */
const PAPERS_PER_CONCEPT = 300;
/** Connecting papers added to the evidence, so that the answer can quote them. */
const CONNECTING_PAPERS = 6;
/**
 * Cosine similarity of a passage and the whole question above which the passage is taken to state what the question
 * asks (see directMatch). Chosen on dev questions: SciFact claims refused with their gold abstract at 0.80–0.91, and
 * two-topic traps whose best passage (on one of the topics) reaches 0.74. Such a passage's paper must name every
 * concept the graph does not connect, save one more common than one it names (see directMatch): of 150 dev claims with
 * evidence (0–49, 150–249), 7 were refused with a passage at 0.79–0.91 whose paper says one of their concepts in other
 * words, and no dev trap's best passage passed 0.742.
 */
const DIRECT_MATCH_SIMILARITY = 0.78;
/**
 * Cosine of a passage and the whole question above which a paper naming every known subject of the question, and a
 * word of each subject no paper names, is taken to name the latter in other words (see connect).
 */
const LAY_WORDS_SIMILARITY = 0.65;
/** Index hits read back to find the papers that connect concepts in their own words. */
const CONNECTION_CANDIDATES = 40;

/** After relational sufficiency: how the question's concepts are connected, and the evidence that connects them. */
export type Related<T extends Gathered> = T & { readonly connection: ConceptConnection };

/** The concept, then its contiguous sub-phrases, longest first (at most four words). */
function subPhrases(concept: Concept): Concept[] {
  const out: Concept[] = [concept];
  const n = concept.words.length;
  for (let length = Math.min(n - 1, 4); length >= 1; length -= 1) {
    for (let start = 0; start + length <= n; start += 1) {
      const words = concept.words.slice(start, start + length);
      out.push({ phrase: words.join(' '), words, stems: concept.stems.slice(start, start + length) });
    }
  }
  return out;
}

/** Papers per concept considered for a citation between two concepts (the best matches of each). */
const CITATION_CHECK_PAPERS = 50;
/** Papers of the question's evidence read per concept when its words do not connect a pair (see relate). */
const EVIDENCE_PAPERS = 10;
/** Evidence papers kept per pair connected through the question's evidence, for the answer to quote. */
const BRIDGING_PAPERS = 3;

/**
 * A concept as the graph is searched for it: its two rarest words (document frequency in the collections), all
 * required in any order — "borderline personality disorder" is "borderline" and "personality"; "chronic kidney disease"
 * is "kidney" and "chronic". Common words ("disorder", "disease") would join any two subjects.
 */
function searchable(concept: Concept, df: (word: string) => number): Concept {
  if (concept.words.length <= 2) return concept;
  const rarest = concept.words
    .map((word, index) => ({ word, index, df: df(word) }))
    .filter((w) => w.df > 0)
    .sort((a, b) => a.df - b.df || a.index - b.index)
    .slice(0, 2)
    .sort((a, b) => a.index - b.index)
    .map((w) => w.word);
  return rarest.length === 0 ? concept : { ...concept, words: rarest, stems: rarest.map(stem) };
}

/**
 * Words the question writes as identifiers — capitals throughout, or letters with digits, three characters or more
 * ("HOTAIR", "SOD1", "CT-P13", "p53") — lower-cased, as the concepts hold their words. Acronyms of common words the
 * question spells out are left to the tagger.
 */
function namedIdentifiers(question: string): Set<string> {
  const out = new Set<string>();
  for (const match of question.matchAll(
    /\b(?=[A-Za-z0-9-]*[A-Za-z])(?:[A-Z][A-Z0-9-]{2,}|[A-Za-z]+-?\d[A-Za-z0-9-]*)\b/g,
  ))
    for (const part of match[0].toLowerCase().split('-')) if (part.length > 0) out.add(part);
  return out;
}

/** What the graph holds on each concept and each pair of the key ones. */
async function connect(deps: AskDependencies, state: Gathered, questionConceptList: readonly Concept[]) {
  const collections = state.options.collections ?? null;
  const frequencies = await deps.search.documentFrequencies(collections ? [...collections] : null);
  const concepts = questionConceptList.map((concept) => searchable(concept, (word) => frequencies.df(word)));
  const papers = new Map<string, string[]>();
  const resolved: Concept[] = [];
  const identifiers = namedIdentifiers(state.question);
  for (const concept of concepts) {
    // A phrase the graph never has verbatim backs off to its longest sub-phrase it has ("borderline personality
    // disorder self harm" → "borderline personality disorder").
    let known = false;
    for (const candidate of subPhrases(concept)) {
      // A subject is what papers are about: it must be in titles ("vulnerability" in a claim is not a subject).
      const found = await deps.catalog.evidence.papersMentioning(
        [conceptForms(candidate)],
        collections,
        PAPERS_PER_CONCEPT,
        {
          inTitle: true,
        },
      );
      if (found.length >= MIN_CONCEPT_PAPERS || candidate === concept) papers.set(candidate.phrase, found);
      if (found.length >= MIN_CONCEPT_PAPERS) {
        resolved.push(candidate);
        known = true;
        break;
      }
    }
    // An identifier the question writes as one ("HOTAIR", "SOD1", "CT-P13") names a subject even when only abstracts
    // hold it: its papers there must connect with the rest of the question like any subject's, so an answer on the
    // other subjects alone does not pass for an answer on it. The identifier alone is looked for ("HOTAIR" of "HOTAIR
    // expression"): the words around it may be the question's own.
    const named = subPhrases(concept).find((candidate) => candidate.words.every((word) => identifiers.has(word)));
    if (!known && named) {
      const found = await deps.catalog.evidence.papersMentioning(
        [conceptForms(named)],
        collections,
        PAPERS_PER_CONCEPT,
      );
      if (found.length > 0) {
        papers.set(named.phrase, found);
        resolved.push(named);
      }
    }
  }
  // A concept of two or more words that no paper holds together, anywhere: the graph does not know it at all
  // ("aurora borealis", where papers on aurora kinases exist). A single word missing is often an identifier spelt
  // otherwise ("Dscam1", "cRCT"), which says less.
  const absent: string[] = [];
  for (const [index, concept] of concepts.entries()) {
    // What must exist is the subject, not each kind of it the question names ("allogeneic" support).
    const core = questionConceptList[index]!.core;
    const subject = core
      ? searchable({ ...concept, words: core, stems: core.map(stem) }, (w) => frequencies.df(w))
      : concept;
    // A run of four or more words is more often the tagger's mistake ("cell th2 environment impedes disease", a verb
    // inside) than a subject's name: it is matched by sub-phrases, never declared absent.
    if (subject.words.length < 2 || (core ?? questionConceptList[index]!.words).length > 3) continue;
    const anywhere = await deps.catalog.evidence.papersMentioning([conceptForms(subject)], collections, 1);
    if (anywhere.length === 0) absent.push(concept.phrase);
  }
  const key = keyConcepts(resolved, (c) => papers.get(c.phrase)?.length ?? 0);
  /**
   * Papers that name every one of the concepts in their own title and abstract: the index's hits (each phrase's words
   * near each other) read back and checked word by word, since the index stems ("mentalization" is "mental" to it)
   * and also matches enrichment vocabulary that is no part of the paper.
   */
  const connecting = async (together: readonly Concept[]) => {
    const candidates = await deps.catalog.evidence.papersMentioning(
      together.map(conceptForms),
      collections,
      CONNECTION_CANDIDATES,
      { near: true },
    );
    const texts = await deps.catalog.evidence.paperTexts(candidates);
    return candidates.filter((id) => connectsConcepts(texts.get(id) ?? '', together)).slice(0, CONNECTING_PAPERS);
  };
  /**
   * A pair the words do not connect, through the question's own evidence: the best passages retrieved for the whole
   * question (lexical and dense, so "inpatient admissions" and "hospitalization" for "hospital admissions") that
   * mention one concept's words anywhere, from papers that do not name the other; the pair is connected when a paper
   * naming the other cites, or is cited by, one of them. A paper naming both in sentences of their own proves nothing,
   * and two subjects of separate literatures stay apart: no citation joins their papers.
   */
  const ranked = state.pool.ranked();
  // Each concept's best passages with their papers' texts, read once however many pairs it is in.
  const evidenceOn = new Map<Concept, Promise<Array<{ id: string; text: string }>>>();
  const mentioning = (concept: Concept) => {
    if (!evidenceOn.has(concept)) {
      const ids = [...new Set(ranked.filter((e) => evidenceMentions(e, concept)).map((e) => e.paperId))].slice(
        0,
        EVIDENCE_PAPERS * 2,
      );
      evidenceOn.set(
        concept,
        deps.catalog.evidence.paperTexts(ids).then((texts) => ids.map((id) => ({ id, text: texts.get(id) ?? '' }))),
      );
    }
    return evidenceOn.get(concept)!;
  };
  const connectedThroughEvidence = async (a: Concept, b: Concept): Promise<PairEvidence> => {
    const onOne = async (concept: Concept, other: Concept): Promise<string[]> =>
      (await mentioning(concept))
        .filter((paper) => !namesConcept(paper.text, other))
        .slice(0, EVIDENCE_PAPERS)
        .map((paper) => paper.id);
    const [nearA, nearB] = await Promise.all([onOne(a, b), onOne(b, a)]);
    const wordsA = papers.get(a.phrase)!.slice(0, CITATION_CHECK_PAPERS);
    const wordsB = papers.get(b.phrase)!.slice(0, CITATION_CHECK_PAPERS);
    // The evidence papers a citation reaches are the ones that make the connection: the answer may quote them (the
    // trial cited by papers on "mbt" that reports fewer inpatient admissions).
    const [toB, toA] = await Promise.all([
      deps.catalog.evidence.citationLinks(wordsA, nearB, BRIDGING_PAPERS),
      deps.catalog.evidence.citationLinks(nearA, wordsB, BRIDGING_PAPERS),
    ]);
    const bridging = [...new Set([...toB.map((link) => link.b), ...toA.map((link) => link.a)])];
    return { together: [], cited: bridging.length > 0, bridging };
  };
  const pairs = new Map<string, PairEvidence>();
  for (let i = 0; i < key.length; i += 1) {
    for (let j = i + 1; j < key.length; j += 1) {
      const a = key[i]!;
      const b = key[j]!;
      const together = await connecting([a, b]);
      const cited =
        together.length === 0 &&
        (
          await deps.catalog.evidence.citationLinks(
            papers.get(a.phrase)!.slice(0, CITATION_CHECK_PAPERS),
            papers.get(b.phrase)!.slice(0, CITATION_CHECK_PAPERS),
          )
        ).length > 0;
      pairs.set(`${i}|${j}`, together.length > 0 || cited ? { together, cited } : await connectedThroughEvidence(a, b));
    }
  }
  const all = key.length >= 2 ? await connecting(key) : [];
  const judged = judgeConnection(concepts, key, pairs, all);
  const withAbsent: ConceptConnection =
    absent.length === 0
      ? judged
      : {
          ...judged,
          absent,
          score: 0,
          reason: `no paper in the graph mentions ${absent.map((phrase) => `"${phrase}"`).join(', ')}`,
        };
  if (withAbsent.unconnected.length === 0 && absent.length === 0) return withAbsent;
  // A subject said in lay words no paper uses ("jaw joint pain" for temporomandibular disorders): a passage close to
  // the whole question, from a paper that names every subject the graph knows and shares a word with each missing
  // one, says the missing subject in its own words.
  if (withAbsent.unconnected.length === 0 && resolved.length > 0) {
    const near = [...new Set(ranked.filter((e) => e.similarity >= LAY_WORDS_SIMILARITY).map((e) => e.paperId))].slice(
      0,
      EVIDENCE_PAPERS,
    );
    const texts = near.length > 0 ? await deps.catalog.evidence.paperTexts(near) : new Map<string, string>();
    const missing = absent.map((phrase) => concepts.find((c) => c.phrase === phrase)!);
    const saying = near.find((id) => {
      const text = texts.get(id) ?? '';
      const words = terms(text);
      return (
        resolved.every((concept) => namesConcept(text, concept)) &&
        missing.every((concept) => concept.words.some((w) => words.some((t) => sameWord(w, t))))
      );
    });
    if (saying)
      return {
        ...judged,
        connectingPapers: [saying, ...judged.connectingPapers.filter((id) => id !== saying)],
        reason: `${withAbsent.reason}; but a passage close to the question (similarity ${Math.max(...ranked.filter((e) => e.paperId === saying).map((e) => e.similarity)).toFixed(2)}) comes from a paper naming ${resolved.map((c) => `"${c.phrase}"`).join(', ')} and part of ${absent.map((p) => `"${p}"`).join(', ')}: taken to say it in other words`,
      };
  }
  // The question's words may not be the paper's: one passage that says nearly what the whole question says, from a
  // paper naming each concept at least in part, connects them in its own words.
  const close = [...new Set(ranked.filter((e) => e.similarity >= DIRECT_MATCH_SIMILARITY).map((e) => e.paperId))];
  if (close.length === 0) return withAbsent;
  const involved = [...new Set([...withAbsent.unconnected.flat(), ...absent])].map((phrase) =>
    [...key, ...concepts].find((c) => c.phrase === phrase)!,
  );
  const texts = await deps.catalog.evidence.paperTexts(close.slice(0, EVIDENCE_PAPERS));
  const best = ranked.find((e) => e.similarity >= DIRECT_MATCH_SIMILARITY && texts.has(e.paperId))!;
  const match = directMatch(
    close.filter((id) => texts.has(id)).map((id) => ({ id, text: texts.get(id)! })),
    involved,
    (word) => Math.log((frequencies.documents + 1) / (frequencies.df(word) + 1)),
    involved.length >= 2 ? 1 : 0,
  );
  if (!match) return withAbsent;
  return {
    ...withAbsent,
    unconnected: [],
    absent: [],
    connectingPapers: [match, ...withAbsent.connectingPapers.filter((id) => id !== match)],
    score: 100,
    reason: `${withAbsent.reason}; but one passage says nearly what the question says (similarity ${best.similarity.toFixed(2)}) in a paper naming each of ${involved.map((c) => `"${c.phrase}"`).join(', ')} at least in part, in its own words`,
  };
}

/**
 * Relational sufficiency: the question's key concepts, whether the graph connects each pair (a paper on both, or a
 * citation between papers on each), and the papers on all of them added to the evidence. Recorded as a sufficiency
 * dimension that gates rather than blends (weight 0): an unconnected pair means abstention.
 */
export function relateStage<T extends Gathered>(deps: AskDependencies): Stage<T, Related<T>> {
  const withDimension = (state: T, connection: ConceptConnection): Related<T> => ({
    ...state,
    connection,
    sufficiency: {
      ...state.sufficiency,
      dimensions: [
        ...state.sufficiency.dimensions.filter((d) => d.name !== 'concept_connection'),
        { name: 'concept_connection', score: connection.score, weight: 0, reason: connection.reason },
      ],
    },
  });
  return {
    name: 'relate',
    run: async (state) => {
      const concepts = questionConcepts(state.question);
      if (setsOnly(state.options)) {
        // The graph's papers say nothing about whether the caller's own documents connect the concepts.
        return withDimension(state, {
          ...judgeConnection(concepts, [], new Map(), []),
          reason: 'not checked: the question is asked of private documents only',
        });
      }
      if (state.decision.route === 'current_world' && !state.pool.ranked().some((e) => e.source === 'external')) {
        // Not answered from the graph's old papers whatever they connect (compose abstains): nothing to check.
        return withDimension(state, {
          ...judgeConnection(concepts, [], new Map(), []),
          reason: 'not checked: a current-world question without external evidence is not answered from the graph',
        });
      }
      const connection = await connect(deps, state, concepts);
      if (connection.known.length >= 2 && connection.connectingPapers.length > 0) {
        await state.pool.addPapers(connection.connectingPapers, 'local', 'concept connection');
      }
      return withDimension(state, connection);
    },
    tolerates: {
      failure: isNonFatal,
      fallback: (state) => withDimension(state, judgeConnection([], [], new Map(), [])),
    },
    note: (state) => state.connection.reason,
  };
}

/** Why an answer abstains when its concepts are not connected: which, and the best evidence for each on its own. */
export function unconnectedReason(state: Related<Gathered>): string {
  const ranked = state.pool.ranked();
  const best = state.connection.known.map((concept) => {
    const top = ranked.find((e) => evidenceMentions(e, concept));
    return `"${concept.phrase}": ${top ? `"${top.paper.title ?? top.paperId}" (score ${top.score})` : 'no passage in the evidence'}`;
  });
  if (state.connection.absent.length > 0) {
    return `The graph holds nothing on part of the question: ${state.connection.reason}, so no passage can answer it.${best.length > 0 ? ` Best evidence for the rest: ${best.join('; ')}.` : ''}`;
  }
  return `The graph does not connect the question's concepts: ${state.connection.reason}. Best evidence for each on its own: ${best.join('; ')}.`;
}

/**
 * The passages an extractive answer may quote: when the question joins two or more concepts, only passages that
 * mention all of them and passages of papers found to mention all of them, so that no answer stitches sentences about
 * different subjects together. When none does, the whole context — which, when the concepts are connected through
 * citations, holds the papers that make the connection (see buildContext's firstPapers).
 */
export function quotable(context: readonly Evidence[], connection: ConceptConnection): Evidence[] {
  if (connection.known.length < 2) return [...context];
  const connecting = new Set(connection.connectingPapers);
  const kept = context.filter(
    (e) => connecting.has(e.paperId) || connection.known.every((concept) => evidenceMentions(e, concept)),
  );
  return kept.length > 0 ? kept : [...context];
}
