// Topics by growth between the early and the late part of a window: papers in [from, split) vs [split, to].
MATCH (p:Paper)-[r:HAS_TOPIC]->(t:Topic)
WHERE p.stub = false AND p.year >= $from AND p.year <= $to AND r.score >= $minScore
  AND ($minLevel IS NULL OR t.level >= $minLevel)
  // include: fragments/paper-filter
WITH t, sum(CASE WHEN p.year < $split THEN 1 ELSE 0 END) AS early, sum(CASE WHEN p.year >= $split THEN 1 ELSE 0 END) AS late
WHERE late >= $minSupport
RETURN t {.*} AS topic, early, late
