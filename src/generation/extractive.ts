import { cosine, type Embedder } from '../embedding/embedder';
import type { Evidence } from '../domain';
import { contentTerms, sentenceSpans } from '../text';

export interface ExtractiveSentence {
  text: string;
  evidenceId: string;
  score: number;
}

/**
 * The offline generator: the answer is made of evidence sentences, chosen by similarity to the question and
 * diversified (a sentence too close to one already chosen is skipped), each cited with its evidence label. It writes
 * nothing the passages do not say, so every sentence is a verbatim quote. Deterministic for the same evidence.
 */
export async function extractiveAnswer(
  question: string,
  evidence: readonly Evidence[],
  label: (evidence: Evidence) => string,
  embedder: Embedder,
  maxSentences: number,
  firstPapers: ReadonlySet<string> = new Set(),
): Promise<{ answer: string; chosen: ExtractiveSentence[] }> {
  const candidates: Array<{ text: string; evidence: Evidence }> = [];
  // The strongest passages, and the best one of each paper the caller names first (the papers that connect the
  // question's concepts, however their passages rank).
  const ranked = [...evidence].sort((a, b) => b.score - a.score);
  const firsts = [...new Set(ranked.filter((e) => firstPapers.has(e.paperId)).map((e) => e.paperId))].map((id) =>
    ranked.find((e) => e.paperId === id)!,
  );
  const read = [...firsts, ...ranked.filter((e) => !firsts.includes(e))].slice(0, Math.max(8, firsts.length + 4));
  for (const item of read) {
    for (const span of sentenceSpans(item.text, 0, item.text.length)) {
      const text = item.text.slice(span.start, span.end).trim();
      if (contentTerms(text).length >= 4 && text.length <= 600) candidates.push({ text, evidence: item });
    }
  }
  if (candidates.length === 0) return { answer: '', chosen: [] };
  const limited = candidates.slice(0, 48);
  const [questionVector, ...vectors] = await embedder.embed([question, ...limited.map((c) => c.text)]);
  const wanted = new Set(contentTerms(question));
  const scored = limited.map((candidate, index) => {
    const terms = new Set(contentTerms(candidate.text));
    const overlap = wanted.size === 0 ? 0 : [...wanted].filter((t) => terms.has(t)).length / wanted.size;
    return {
      ...candidate,
      vector: vectors[index]!,
      score: 0.7 * cosine(questionVector!, vectors[index]!) + 0.3 * overlap + 0.002 * candidate.evidence.score,
    };
  });
  scored.sort((a, b) => b.score - a.score || (a.text < b.text ? -1 : 1));
  const chosen: typeof scored = [];
  for (const candidate of scored) {
    if (chosen.length >= maxSentences) break;
    if (candidate.score < 0.25) break;
    if (chosen.some((other) => cosine(other.vector, candidate.vector) > 0.85)) continue;
    chosen.push(candidate);
  }
  const answer = chosen.map((c) => `${c.text.replace(/[.!?]$/, '')} [${label(c.evidence)}].`).join(' ');
  return {
    answer,
    chosen: chosen.map((c) => ({ text: c.text, evidenceId: c.evidence.id, score: Number(c.score.toFixed(4)) })),
  };
}
