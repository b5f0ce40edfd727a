// Most cited (or most productive) people of the whole graph, from the stored per-person totals (aggregates/refresh
// keeps them): what analytics/top-authors computes with no filter. The record standing for each person carries
// :Person, indexed on each total, so the page is read from the top of an index and the total from the label count.
// Each branch tests $by before it matches, so the two branches not asked for read no index entry.
// Ties: more papers first, then the smaller id (by papers: the smaller id), as analytics/top-authors orders them.
MATCH (person:Person)
WITH count(person) AS total
CALL () {
  WITH $by AS by
  WHERE by = 'INTERNAL_CITATIONS'
  MATCH (a:Person)
  WHERE a.personInternal IS NOT NULL
  WITH a ORDER BY a.personInternal DESC, a.personPapers DESC, a.id SKIP $skip LIMIT $limit
  RETURN a, a.personInternal AS citations, a.personInternal AS score
  UNION ALL
  WITH $by AS by
  WHERE by = 'GLOBAL_CITATIONS'
  MATCH (a:Person)
  WHERE a.personGlobal IS NOT NULL
  WITH a ORDER BY a.personGlobal DESC, a.personPapers DESC, a.id SKIP $skip LIMIT $limit
  RETURN a, a.personGlobal AS citations, a.personGlobal AS score
  UNION ALL
  WITH $by AS by
  WHERE by = 'PAPERS'
  MATCH (a:Person)
  WHERE a.personPapers IS NOT NULL
  WITH a ORDER BY a.personPapers DESC, a.id SKIP $skip LIMIT $limit
  RETURN a, a.personInternal AS citations, a.personPapers AS score
}
WITH total, collect({author: properties(a), papers: a.personPapers, score: score, citations: citations}) AS items
RETURN total, items
