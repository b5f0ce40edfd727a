// Topics whose name matches a Lucene query over names (topic_name), best match first, ties by paper count; the
// count is of full papers carrying the topic.
CALL db.index.fulltext.queryNodes('topic_name', $query, {limit: $scan}) YIELD node AS t, score
WITH t, score, COUNT { (t)<-[:HAS_TOPIC]-(:Paper {stub: false}) } AS papers
ORDER BY score DESC, papers DESC, t.id
LIMIT $limit
RETURN t {.*} AS topic, score, papers
