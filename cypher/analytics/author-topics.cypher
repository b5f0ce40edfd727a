// An author's main topics: how many of the author's papers carry each topic, weighted by the topic score.
MATCH (:Author {id: $id})-[:AUTHORED]->(p:Paper)-[r:HAS_TOPIC]->(t:Topic)
WHERE p.stub = false AND ($minLevel IS NULL OR t.level >= $minLevel)
WITH t, count(DISTINCT p) AS papers, sum(r.score) AS weight
ORDER BY weight DESC, t.id
LIMIT $limit
RETURN t {.*} AS topic, papers, weight
