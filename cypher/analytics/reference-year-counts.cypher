// Per year in [$from, $to], the references the filtered papers of that year make, and for the $limit works they cite
// most the citations each gets from them: the series Kleinberg's burst detection reads for cited works. Streamed in
// three passes (no list of every citation is built): the yearly totals, the most cited works, and each one's series
// read from its own citations.
CALL () {
  MATCH (p:Paper)
  WHERE p.stub = false AND p.year >= $from AND p.year <= $to
    // include: fragments/paper-filter
  WITH p.year AS year, COUNT { (p)-[:CITES]->(:Paper) } AS references
  WITH year, sum(references) AS total
  WHERE total > 0
  ORDER BY year
  RETURN collect({year: year, total: total}) AS totals
}
CALL () {
  MATCH (p:Paper)
  WHERE p.stub = false AND p.year >= $from AND p.year <= $to
    // include: fragments/paper-filter
  MATCH (p)-[:CITES]->(r:Paper)
  WITH r, count(*) AS cited
  ORDER BY cited DESC, r.id
  LIMIT $limit
  RETURN collect(r) AS refs
}
UNWIND refs AS r
CALL (r) {
  MATCH (r)<-[:CITES]-(p:Paper)
  WHERE p.stub = false AND p.year >= $from AND p.year <= $to
    // include: fragments/paper-filter
  WITH p.year AS year, count(*) AS relevant
  ORDER BY year
  RETURN collect({year: year, relevant: relevant}) AS series
}
RETURN r {.*} AS paper, series, totals
