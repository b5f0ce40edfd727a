// What analytics/topic-year-counts computes with no filter, from the yearly counts aggregates/refresh keeps
// (TopicYear per topic, PaperYear for all full papers) instead of every paper: the cost grows with topics × years.
MATCH (c:TopicYear)
WHERE c.year >= $from AND c.year <= $to
WITH c.topic AS topicId, sum(c.papers) AS papers
MATCH (t:Topic {id: topicId})
WHERE $minLevel IS NULL OR t.level >= $minLevel
WITH t, papers
ORDER BY papers DESC, t.id
LIMIT $limit
CALL () {
  MATCH (y:PaperYear)
  WHERE y.year >= $from AND y.year <= $to
  WITH y ORDER BY y.year
  RETURN collect({year: y.year, total: y.papers}) AS totals
}
CALL (t) {
  MATCH (c:TopicYear {topic: t.id})
  WHERE c.year >= $from AND c.year <= $to
  WITH c ORDER BY c.year
  RETURN collect({year: c.year, relevant: c.papers}) AS series
}
RETURN t {.*} AS topic, series, totals
