// Per year in [$from, $to], the references the filtered papers of that year make, and for the $limit works they cite
// most the citations each gets from them: the series Kleinberg's burst detection reads for cited works.
MATCH (p:Paper)
WHERE p.stub = false AND p.year >= $from AND p.year <= $to
  // include: fragments/paper-filter
MATCH (p)-[:CITES]->(r:Paper)
WITH p.year AS year, r
WITH collect({year: year, ref: r.id}) AS citations
CALL (citations) {
  UNWIND citations AS c
  RETURN c.year AS year, count(*) AS total
  ORDER BY year
}
WITH citations, collect({year: year, total: total}) AS totals
CALL (citations) {
  UNWIND citations AS c
  WITH c.ref AS ref, count(*) AS n
  ORDER BY n DESC, ref
  LIMIT $limit
  RETURN collect(ref) AS refs
}
UNWIND refs AS ref
CALL (citations, ref) {
  UNWIND citations AS c
  WITH c WHERE c.ref = ref
  RETURN c.year AS year, count(*) AS relevant
  ORDER BY year
}
WITH totals, ref, collect({year: year, relevant: relevant}) AS series
MATCH (r:Paper {id: ref})
RETURN r {.*} AS paper, series, totals
