// Authors over the filtered papers ranked by the sum of internal or global citations of their papers, or by their
// number of papers ($by PAPERS).
// Records sharing an ORCID are one person (grouped by it, shown by the record with the smallest id).
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
// Each paper's citations once, then spread over its authors (not once per authorship).
WITH p, CASE $by WHEN 'GLOBAL_CITATIONS' THEN coalesce(p.citedByCount, 0) ELSE p.internalCitedBy END AS citations
MATCH (a:Author)-[:AUTHORED]->(p)
// One row per person and paper, however many of the person's records signed it.
WITH coalesce('orcid:' + a.orcid, a.id) AS person, p, citations, min(a.id) AS record
WITH person, count(p) AS papers, sum(citations) AS citations, min(record) AS record
WITH person, papers, citations, CASE $by WHEN 'PAPERS' THEN papers ELSE citations END AS score, record
ORDER BY score DESC, papers DESC, record
WITH collect([record, papers, score, citations]) AS rows
CALL (rows) {
  UNWIND rows[$skip..($skip + $limit)] AS r
  MATCH (a:Author {id: r[0]})
  RETURN collect({author: properties(a), papers: r[1], score: r[2], citations: r[3]}) AS items
}
RETURN size(rows) AS total, items
