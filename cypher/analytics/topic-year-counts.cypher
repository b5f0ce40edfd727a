// Per year in [$from, $to], the filtered papers, and for the $limit most frequent topics (level ≥ $minLevel) the
// papers carrying each: the series Kleinberg's burst detection reads.
MATCH (p:Paper)
WHERE p.stub = false AND p.year >= $from AND p.year <= $to
  // include: fragments/paper-filter
WITH collect(p) AS papers
CALL (papers) {
  UNWIND papers AS p
  RETURN p.year AS year, count(*) AS total
  ORDER BY year
}
WITH papers, collect({year: year, total: total}) AS totals
CALL (papers) {
  UNWIND papers AS p
  MATCH (p)-[:HAS_TOPIC]->(t:Topic)
  WHERE $minLevel IS NULL OR t.level >= $minLevel
  WITH t, count(DISTINCT p) AS n
  ORDER BY n DESC, t.id
  LIMIT $limit
  RETURN collect(t) AS topics
}
UNWIND topics AS t
CALL (papers, t) {
  UNWIND papers AS p
  MATCH (p)-[:HAS_TOPIC]->(t)
  RETURN p.year AS year, count(*) AS relevant
  ORDER BY year
}
WITH totals, t, collect({year: year, relevant: relevant}) AS series
RETURN t {.*} AS topic, series, totals
