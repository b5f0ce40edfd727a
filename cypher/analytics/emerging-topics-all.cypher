// What analytics/emerging-topics computes with no filter and the stored score threshold, from the yearly counts that
// aggregates/refresh keeps per topic (TopicYear.strong: papers with the topic at a score ≥ the threshold) instead of
// every paper: the cost grows with topics × years.
MATCH (c:TopicYear)
WHERE c.year >= $from AND c.year <= $to
WITH c.topic AS topicId, sum(CASE WHEN c.year < $split THEN c.strong ELSE 0 END) AS early,
     sum(CASE WHEN c.year >= $split THEN c.strong ELSE 0 END) AS late
WHERE late >= $minSupport
MATCH (t:Topic {id: topicId})
WHERE $minLevel IS NULL OR t.level >= $minLevel
RETURN t {.*} AS topic, early, late
