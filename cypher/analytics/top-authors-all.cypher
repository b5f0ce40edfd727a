// Most cited people of the whole graph, from the stored per-person totals (aggregates/refresh keeps them): what
// analytics/top-authors computes with no filter, without recounting every authorship. A person is shown by its
// record with the smallest id.
MATCH (a:Author)
WHERE a.personPapers > 0 AND a.personRecord = a.id
WITH count(a) AS total
CALL () {
  MATCH (a:Author)
  WHERE a.personPapers > 0 AND a.personRecord = a.id
  WITH a, CASE $by WHEN 'GLOBAL_CITATIONS' THEN a.personGlobal ELSE a.personInternal END AS citations
  WITH a, citations, CASE $by WHEN 'PAPERS' THEN a.personPapers ELSE citations END AS score
  ORDER BY score DESC, a.personPapers DESC, a.id
  SKIP $skip
  LIMIT $limit
  RETURN collect({author: properties(a), papers: a.personPapers, score: score, citations: citations}) AS items
}
RETURN total, items
