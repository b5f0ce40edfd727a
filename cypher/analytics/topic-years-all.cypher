// What analytics/topic-years gives with no filter, from the yearly counts every write keeps per topic (TopicYear, see
// aggregates/refresh) instead of every paper of each topic.
UNWIND $topicIds AS topicId
MATCH (c:TopicYear {topic: topicId})
WHERE c.year >= $from AND c.year <= $to
RETURN topicId, c.year AS year, c.papers AS count
ORDER BY topicId, year
