// Papers per year for each topic in a year range.
UNWIND $topicIds AS topicId
MATCH (:Topic {id: topicId})<-[:HAS_TOPIC]-(p:Paper)
WHERE p.stub = false AND p.year >= $from AND p.year <= $to
  // include: fragments/paper-filter
RETURN topicId, p.year AS year, count(p) AS count
ORDER BY topicId, year
